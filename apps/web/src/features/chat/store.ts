import type { ChatMessage } from "@ensemble/protocol";
import { create } from "zustand";
import { countUnread, mergeMessages } from "./messages";

interface ChatState {
  sessionId: string | null;
  /** Every message we have, oldest first, each once. */
  messages: ChatMessage[];
  /** Earlier messages exist on the server than the first we have. */
  hasMore: boolean;
  isLoadingEarlier: boolean;
  isOpen: boolean;
  /** The list is scrolled to its newest message (true while closed: it opens there). */
  isAtBottom: boolean;
  /** Others' messages received while the panel was closed or scrolled up. */
  unread: number;
}

const initial: ChatState = {
  sessionId: null,
  messages: [],
  hasMore: false,
  isLoadingEarlier: false,
  isOpen: false,
  isAtBottom: true,
  unread: 0,
};

/** The open session's chat and the panel's state. */
export const useChatStore = create<ChatState>()(() => initial);

/** Empties the chat for a new session; the panel stays open or closed. */
export function resetChat(sessionId: string): void {
  useChatStore.setState(({ isOpen }) => ({ ...initial, sessionId, isOpen }));
}

/** Messages that just arrived (a broadcast or our ack); others' count as unread unless seen. */
export function receiveMessages(incoming: readonly ChatMessage[], selfId: string | null): void {
  useChatStore.setState((s) => {
    const isSeen = s.isOpen && s.isAtBottom;
    const unread = isSeen ? 0 : s.unread + countUnread(s.messages, incoming, selfId);
    return { messages: mergeMessages(s.messages, incoming), unread };
  });
}

/**
 * The newest page from the server, after a (re)join. What we hold from before it is dropped
 * (after a long disconnect it may not join up); what arrived since it was read is kept. Not
 * unread: we cannot know what was seen before.
 */
export function receiveNewestPage(messages: readonly ChatMessage[], hasMore: boolean): void {
  useChatStore.setState((s) => {
    const first = messages[0]?.id ?? 0;
    const since = s.messages.filter((m) => m.id >= first);
    return { messages: mergeMessages(since, messages), hasMore };
  });
}

/** An earlier page, asked for with "Load earlier messages". */
export function receiveEarlierPage(messages: readonly ChatMessage[], hasMore: boolean): void {
  useChatStore.setState((s) => ({
    messages: mergeMessages(s.messages, messages),
    hasMore,
    isLoadingEarlier: false,
  }));
}

/** An author's account was deleted: their messages show `name` ("Deleted user") from now on. */
export function renameAuthor(authorId: string, name: string): void {
  useChatStore.setState((s) => ({
    messages: s.messages.map((m) => (m.authorId === authorId ? { ...m, authorName: name } : m)),
  }));
}

export function setLoadingEarlier(isLoadingEarlier: boolean): void {
  useChatStore.setState({ isLoadingEarlier });
}

/** Opens (everything counts as read: the list opens at its newest message) or closes the panel. */
export function setChatOpen(isOpen: boolean): void {
  useChatStore.setState(isOpen ? { isOpen, isAtBottom: true, unread: 0 } : { isOpen });
}

/** The list was scrolled; reaching the bottom reads everything. */
export function setAtBottom(isAtBottom: boolean): void {
  useChatStore.setState((s) => (isAtBottom && s.isOpen ? { isAtBottom, unread: 0 } : { isAtBottom }));
}
