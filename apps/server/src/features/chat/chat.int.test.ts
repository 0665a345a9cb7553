import {
  CHAT_LIMITS,
  CHAT_MESSAGES,
  type ChatBroadcast,
  type ChatHistory,
  type ChatMessage,
  PROTOCOL_VERSION,
  SESSION_ENDED_MESSAGE,
} from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, emitAck, type TestEditor, waitFor } from "../../../test/collabClient";
import { DATABASES, socketClient, startTestServer, type TestServer } from "../../../test/harness";

const send = (editor: TestEditor, sessionId: string, text: unknown, extra: object = {}) =>
  emitAck<ChatMessage>(editor.socket, "sendChat", { sessionId, text, ...extra });

const history = (socket: Socket, sessionId: string, before?: number) =>
  emitAck<ChatHistory>(socket, "getChatHistory", { sessionId, ...(before ? { before } : {}) });

const received = (editor: TestEditor) =>
  ((editor.received.get("chatMessage") ?? []) as ChatBroadcast[]).map((b) => b.message);

/** The texts stored for a session, read from the database itself. */
describe.each(DATABASES)("session chat on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const newSession = () => editors.hostAndGuest(server.api, "chat");
  const storedTexts = async (sessionId: string) =>
    (
      await server.db.query<{ text: string }>(
        "SELECT text FROM chat_messages WHERE session_id = $1 ORDER BY id",
        [sessionId],
      )
    ).map((row) => row.text);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("sends a message to everyone in the session once, stamped by the server with its author and time", async () => {
    const { sessionId, host, guest, hostUser } = await newSession();
    const before = Date.now();
    // A forged author and time in the payload are ignored: the server stamps them.
    const ack = await send(host, sessionId, "  hello <b>there</b>\r\nsecond\tline  ", {
      authorId: "someone-else",
      authorName: "The Boss",
      sentAt: "2000-01-01T00:00:00.000Z",
    });
    if (!ack.ok) throw new Error(ack.error.message);
    const message = ack.data;
    expect(message).toMatchObject({
      authorId: hostUser.user.id,
      authorName: hostUser.user.name,
      text: "hello <b>there</b>\nsecond\tline",
    });
    expect(Date.parse(message.sentAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(message.sentAt)).toBeLessThanOrEqual(Date.now() + 1000);
    await waitFor(() => received(guest).length === 1 && received(host).length === 1, 5000, "the broadcast");
    expect(received(guest)).toEqual([message]);
    expect(received(host)).toEqual([message]);

    const reply = await send(guest, sessionId, "hi", { authorName: "host" });
    expect(reply).toMatchObject({
      ok: true,
      data: { authorId: expect.stringMatching(/^guest-/), authorName: "Anonymous" },
    });
    await waitFor(() => received(host).length === 2, 5000, "the reply");
    expect(await storedTexts(sessionId)).toEqual(["hello <b>there</b>\nsecond\tline", "hi"]);
  });

  it("gives a late joiner the history in order, and earlier pages on request", async () => {
    const { sessionId, host } = await newSession();
    const texts = ["one", "two", "three"];
    for (const text of texts) expect((await send(host, sessionId, text)).ok).toBe(true);
    const late = await editors.open();
    expect((await late.join(sessionId)).ok).toBe(true);
    const page = await history(late.socket, sessionId);
    if (!page.ok) throw new Error(page.error.message);
    expect(page.data.hasMore).toBe(false);
    expect(page.data.messages.map((m) => m.text)).toEqual(texts);
    const ids = page.data.messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    // Past a page: the newest page first, then the ones before it.
    const extra = CHAT_LIMITS.historyPage + 2;
    await server.db.query(
      `INSERT INTO chat_messages (session_id, author_id, author_name, text)
       SELECT $1, 'x', 'X', 'bulk ' || n FROM generate_series(1, $2::int) AS n`,
      [sessionId, extra],
    );
    const newest = await history(late.socket, sessionId);
    if (!newest.ok) throw new Error(newest.error.message);
    expect(newest.data.messages).toHaveLength(CHAT_LIMITS.historyPage);
    expect(newest.data.hasMore).toBe(true);
    expect(newest.data.messages.at(-1)?.text).toBe(`bulk ${extra}`);
    const earlier = await history(late.socket, sessionId, newest.data.messages[0]?.id);
    if (!earlier.ok) throw new Error(earlier.error.message);
    expect(earlier.data.messages.map((m) => m.text)).toEqual([...texts, "bulk 1", "bulk 2"]);
    expect(earlier.data.hasMore).toBe(false);
  });

  it("refuses empty, too long and control-character messages, and stores nothing for them", async () => {
    const { sessionId, host, guest } = await newSession();
    const longest = "é".repeat(CHAT_LIMITS.messageChars);
    const refusals: [unknown, string][] = [
      ["", CHAT_MESSAGES.empty],
      [" \n\t ", CHAT_MESSAGES.empty],
      [`${longest}x`, CHAT_MESSAGES.tooLong],
      ["x".repeat(CHAT_LIMITS.messageChars * 10), CHAT_MESSAGES.tooLong],
      ["nul \u0000 here", CHAT_MESSAGES.control],
      ["bell \u0007", CHAT_MESSAGES.control],
      ["escape \u001b[31mred", CHAT_MESSAGES.control],
      ["c1 \u0085", CHAT_MESSAGES.control],
      [42, "Invalid input: expected string, received number"],
    ];
    for (const [text, message] of refusals) {
      expect(await send(host, sessionId, text)).toEqual({
        ok: false,
        error: { code: "invalid_payload", message },
      });
    }
    // Exactly the limit passes, counted in characters (each "é" is 2 bytes), after trimming.
    expect((await send(host, sessionId, `  ${longest}\n`)).ok).toBe(true);
    expect(await storedTexts(sessionId)).toEqual([longest]);
    await waitFor(() => received(guest).length === 1, 5000, "the one accepted message");
  });

  it("refuses a flood with rate_limited and stores only what the limit allows", async () => {
    const { sessionId, guest, host } = await newSession();
    const sent = CHAT_LIMITS.messagesPerWindow + 3;
    const acks = await Promise.all(
      Array.from({ length: sent }, (_, i) => send(guest, sessionId, `flood ${i}`)),
    );
    const accepted = acks.filter((a) => a.ok);
    const refused = acks.filter((a) => !a.ok);
    expect(accepted).toHaveLength(CHAT_LIMITS.messagesPerWindow);
    expect(refused).toHaveLength(3);
    for (const refusal of refused)
      expect(refusal).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(await storedTexts(sessionId)).toHaveLength(CHAT_LIMITS.messagesPerWindow);
    // Coming back as a new guest does not refill the budget: guests count by address.
    const newGuest = await editors.open(undefined, { guestSecret: "ab".repeat(32) });
    expect((await newGuest.join(sessionId)).ok).toBe(true);
    expect(await send(newGuest, sessionId, "fresh start")).toMatchObject({
      ok: false,
      error: { code: "rate_limited" },
    });
    // The limit is the author's: the host still talks.
    expect((await send(host, sessionId, "still here")).ok).toBe(true);
    expect(await storedTexts(sessionId)).toHaveLength(CHAT_LIMITS.messagesPerWindow + 1);
  });

  it("keeps a session's newest messages only, past its bound", async () => {
    const { sessionId, host } = await newSession();
    await server.db.query(
      `INSERT INTO chat_messages (session_id, author_id, author_name, text)
       SELECT $1, 'x', 'X', 'old ' || n FROM generate_series(1, $2::int) AS n`,
      [sessionId, CHAT_LIMITS.sessionMessages],
    );
    expect((await send(host, sessionId, "newest")).ok).toBe(true);
    const texts = await storedTexts(sessionId);
    expect(texts).toHaveLength(CHAT_LIMITS.sessionMessages);
    expect(texts[0]).toBe("old 2");
    expect(texts.at(-1)).toBe("newest");
  });

  it("lets no one outside the session read or send, even with the session's id", async () => {
    const { sessionId, host } = await newSession();
    expect((await send(host, sessionId, "members only")).ok).toBe(true);
    // A socket that never joined.
    const stranger = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    await new Promise((resolve) => stranger.once("connect", () => resolve(null)));
    const seen: unknown[] = [];
    stranger.on("chatMessage", (m) => seen.push(m));
    const notJoined = { ok: false, error: { code: "not_joined", message: "Join the session first" } };
    expect(await emitAck(stranger, "sendChat", { sessionId, text: "let me in" })).toEqual(notJoined);
    expect(await history(stranger, sessionId)).toEqual(notJoined);
    // A socket of another session.
    const other = await newSession();
    expect(await send(other.guest, sessionId, "cross talk")).toEqual(notJoined);
    expect(await history(other.guest.socket, sessionId)).toEqual(notJoined);
    expect((await send(host, sessionId, "after the strangers")).ok).toBe(true);
    await waitFor(() => received(host).length === 2, 5000, "the second message");
    expect(seen).toEqual([]);
    expect(received(other.guest)).toEqual([]);
    expect(received(other.host)).toEqual([]);
    expect(await storedTexts(sessionId)).toEqual(["members only", "after the strangers"]);
    stranger.disconnect();
  });

  it("keeps an ended session's chat readable and refuses new messages with session_ended", async () => {
    const { sessionId, host, guest } = await newSession();
    expect((await send(guest, sessionId, "before the end")).ok).toBe(true);
    const ended = await host.request("sessionEnding", { sessionId });
    expect(ended.ok).toBe(true);
    for (const editor of [host, guest]) {
      expect(await send(editor, sessionId, "after the end")).toEqual({
        ok: false,
        error: { code: "session_ended", message: SESSION_ENDED_MESSAGE },
      });
    }
    const page = await history(guest.socket, sessionId);
    expect(page).toMatchObject({
      ok: true,
      data: { messages: [{ text: "before the end" }], hasMore: false },
    });
    expect((await host.request("reopenSession", { sessionId })).ok).toBe(true);
    expect((await send(guest, sessionId, "reopened")).ok).toBe(true);
    expect(await storedTexts(sessionId)).toEqual(["before the end", "reopened"]);
  });
});
