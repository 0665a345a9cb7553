import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOCAL_ERRORS, REQUEST_TIMEOUT_MS, SessionLink } from "./sessionLink";
import type { EditorSocket } from "./socket";

const SESSION = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";

type Ack = (err: Error | null, answer?: unknown) => void;

/** Enough of socket.io's client for SessionLink: a `timeout` that fails the ack like socket.io's. */
function fakeSocket() {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const sent: { event: string; payload: unknown; answer: (value: unknown) => void }[] = [];
  const notices: { event: string; payload: unknown }[] = [];
  const socket = {
    connected: true,
    timeout(ms: number) {
      return {
        emit(event: string, payload: unknown, ack: Ack) {
          let isDone = false;
          const timer = setTimeout(() => {
            isDone = true;
            ack(new Error("operation has timed out"));
          }, ms);
          sent.push({
            event,
            payload,
            answer: (value) => {
              if (isDone) return;
              clearTimeout(timer);
              ack(null, value);
            },
          });
        },
      };
    },
    emit(event: string, payload: unknown) {
      notices.push({ event, payload });
    },
    on(event: string, listener: (payload: unknown) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
    },
    off(event: string, listener: (payload: unknown) => void) {
      listeners.get(event)?.delete(listener);
    },
  };
  const receive = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  // The fake covers what SessionLink calls; socket.io's full type is far wider.
  const link = new SessionLink(socket as unknown as EditorSocket, SESSION);
  return { socket, link, sent, notices, receive };
}

describe("SessionLink.request", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves with the ack's data parsed against the catalogue", async () => {
    const { link, sent } = fakeSocket();
    const pending = link.request("setLock", { sessionId: SESSION, isLocked: true });
    expect(sent).toMatchObject([{ event: "setLock", payload: { sessionId: SESSION, isLocked: true } }]);
    sent[0]?.answer({ ok: true, data: { sessionId: SESSION, isLocked: true } });
    expect(await pending).toEqual({ ok: true, data: { sessionId: SESSION, isLocked: true } });
  });

  it("passes the server's refusal on as it came", async () => {
    const { link, sent } = fakeSocket();
    const pending = link.request("setLock", { sessionId: SESSION, isLocked: true });
    sent[0]?.answer({ ok: false, error: { code: "forbidden", message: "Only the host can lock" } });
    expect(await pending).toEqual({
      ok: false,
      error: { code: "forbidden", message: "Only the host can lock" },
    });
  });

  it("answers invalid_answer when the ack fails the catalogue's schema", async () => {
    const { link, sent } = fakeSocket();
    const pending = link.request("setLock", { sessionId: SESSION, isLocked: true });
    sent[0]?.answer({ ok: true, data: { isLocked: "yes" } });
    expect(await pending).toEqual({
      ok: false,
      error: { code: "invalid_answer", message: LOCAL_ERRORS.invalid_answer },
    });
  });

  it("answers timeout after the event's time in the table, and ignores a later ack", async () => {
    const { link, sent } = fakeSocket();
    const pending = link.request("getPRDiff", { sessionId: SESSION, prId: "pr-1" });
    vi.advanceTimersByTime(REQUEST_TIMEOUT_MS.getPRDiff - 1);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await pending).toEqual({ ok: false, error: { code: "timeout", message: LOCAL_ERRORS.timeout } });
    sent[0]?.answer({ ok: true, data: { files: [] } });
  });

  it("sends nothing while offline and answers offline at once", async () => {
    const { socket, link, sent } = fakeSocket();
    socket.connected = false;
    expect(await link.request("sendChat", { sessionId: SESSION, text: "hi" })).toEqual({
      ok: false,
      error: { code: "offline", message: LOCAL_ERRORS.offline },
    });
    expect(sent).toHaveLength(0);
  });

  it("words its own failures as the request asks", async () => {
    const { socket, link } = fakeSocket();
    socket.connected = false;
    const result = await link.request(
      "setLock",
      { sessionId: SESSION, isLocked: true },
      { offline: "Offline." },
    );
    expect(result).toEqual({ ok: false, error: { code: "offline", message: "Offline." } });
  });

  it("refuses a payload that fails the catalogue without sending it", async () => {
    const { link, sent } = fakeSocket();
    const result = await link.request("setLock", { sessionId: "  ", isLocked: true });
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    expect(sent).toHaveLength(0);
  });
});

describe("SessionLink.send", () => {
  it("sends a notice while connected and drops it while offline", () => {
    const { socket, link, notices } = fakeSocket();
    expect(link.send("requestPRSync", SESSION)).toBe(true);
    socket.connected = false;
    expect(link.send("requestPRSync", SESSION)).toBe(false);
    expect(notices).toEqual([{ event: "requestPRSync", payload: SESSION }]);
  });

  it("drops a notice that fails the catalogue", () => {
    const { link, notices } = fakeSocket();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(link.send("yjsSync", new Uint8Array())).toBe(false);
    expect(notices).toHaveLength(0);
    warn.mockRestore();
  });
});

describe("SessionLink.listen", () => {
  const lock = (sessionId: string) => ({ sessionId, isLocked: true });

  it("hands over this session's parsed events", () => {
    const { link, receive } = fakeSocket();
    const handler = vi.fn();
    link.listen("lockState", handler);
    receive("lockState", lock(SESSION));
    expect(handler).toHaveBeenCalledWith(lock(SESSION));
  });

  it("drops the events of another session", () => {
    const { link, receive } = fakeSocket();
    const handler = vi.fn();
    link.listen("lockState", handler);
    receive("lockState", lock(OTHER));
    expect(handler).not.toHaveBeenCalled();
  });

  it("drops a payload that fails the catalogue's schema", () => {
    const { link, receive } = fakeSocket();
    const handler = vi.fn();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    link.listen("lockState", handler);
    receive("lockState", { sessionId: SESSION, isLocked: "yes" });
    expect(handler).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it("passes events that name no session, and stops once removed", () => {
    const { link, receive } = fakeSocket();
    const handler = vi.fn();
    const stop = link.listen("participantLeft", handler);
    receive("participantLeft", "user-1");
    stop();
    receive("participantLeft", "user-2");
    expect(handler.mock.calls).toEqual([["user-1"]]);
  });
});
