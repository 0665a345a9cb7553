import type { ChatMessage } from "@ensemble/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { mergeMessages } from "./messages";
import {
  receiveEarlierPage,
  receiveMessages,
  receiveNewestPage,
  renameAuthor,
  resetChat,
  setAtBottom,
  setChatOpen,
  useChatStore,
} from "./store";

const message = (id: number, authorId = "other"): ChatMessage => ({
  id,
  authorId,
  authorName: authorId,
  text: `message ${id}`,
  sentAt: new Date(1_700_000_000_000 + id * 1000).toISOString(),
});
const ids = () => useChatStore.getState().messages.map((m) => m.id);
const unread = () => useChatStore.getState().unread;

describe("mergeMessages", () => {
  it("keeps each message once, in the server's order, whatever order they arrive in", () => {
    const merged = mergeMessages([message(2), message(5)], [message(4), message(2), message(1)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 4, 5]);
  });

  it("answers the same list when nothing is new (no re-render)", () => {
    const existing = [message(1)];
    expect(mergeMessages(existing, [message(1)])).toBe(existing);
  });
});

describe("the chat store", () => {
  beforeEach(() => {
    setChatOpen(false);
    resetChat("s");
  });

  it("counts others' messages as unread while closed, not our own, and clears on opening", () => {
    receiveMessages([message(1)], "me");
    receiveMessages([message(2, "me")], "me");
    receiveMessages([message(1)], "me");
    expect(unread()).toBe(1);
    setChatOpen(true);
    expect(unread()).toBe(0);
    receiveMessages([message(3)], "me");
    expect(unread()).toBe(0);
  });

  it("counts messages received while scrolled up, and clears them at the bottom", () => {
    setChatOpen(true);
    setAtBottom(false);
    receiveMessages([message(1), message(2)], "me");
    expect(unread()).toBe(2);
    setAtBottom(true);
    expect(unread()).toBe(0);
  });

  it("never counts history as unread, and keeps what arrived after the page was read", () => {
    receiveMessages([message(9)], "me");
    receiveNewestPage([message(7), message(8)], true);
    expect(ids()).toEqual([7, 8, 9]);
    expect(useChatStore.getState().hasMore).toBe(true);
    expect(unread()).toBe(1);
    receiveEarlierPage([message(5), message(6)], false);
    expect(ids()).toEqual([5, 6, 7, 8, 9]);
    expect(useChatStore.getState().hasMore).toBe(false);
  });

  it("drops what it held before a newer page after a rejoin, so no gap is shown", () => {
    receiveNewestPage([message(1), message(2)], false);
    receiveNewestPage([message(300), message(301)], true);
    expect(ids()).toEqual([300, 301]);
  });

  it("shows a deleted account's messages under the new name, and only theirs", () => {
    receiveMessages([message(1, "gone"), message(2), message(3, "gone")], null);
    renameAuthor("gone", "Deleted user");
    expect(useChatStore.getState().messages.map((m) => [m.id, m.authorId, m.authorName])).toEqual([
      [1, "gone", "Deleted user"],
      [2, "other", "other"],
      [3, "gone", "Deleted user"],
    ]);
  });
});
