import type { LspDiagnostics } from "@ensemble/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClangdChannel, type ClangdLink } from "./channel";

type Answer = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } };

/** A link whose `lspOpen` answers come from `answers` in turn, and whose broadcasts the test sends. */
function fakeLink(answers: Answer[]) {
  let broadcast: ((payload: LspDiagnostics) => void) | undefined;
  const opened: unknown[] = [];
  const link = {
    sessionId: "s1",
    request: async (event: string, payload: unknown) => {
      if (event === "lspOpen") opened.push(payload);
      return answers.shift() ?? { ok: false, error: { code: "timeout", message: "none left" } };
    },
    listen: (_event: string, handler: (payload: LspDiagnostics) => void) => {
      broadcast = handler;
      return () => {};
    },
  };
  return {
    // The channel reads only these three members; the test stands in for them.
    link: link as unknown as ClangdLink,
    opened,
    broadcast: (payload: LspDiagnostics) => broadcast?.(payload),
  };
}

const diagnostic = (message: string) => ({
  range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } },
  severity: "error" as const,
  message,
});

function channelWith(answers: Answer[]) {
  const fake = fakeLink(answers);
  let joined = () => {};
  const channel = new ClangdChannel(
    fake.link,
    (handler) => {
      joined = handler;
    },
    () => {},
  );
  return { ...fake, channel, join: () => joined() };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe("ClangdChannel", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("asks nothing until started; then opens, takes what was reported, and follows broadcasts", async () => {
    const { channel, opened, broadcast, join } = channelWith([
      { ok: true, data: { server: "clangd", files: [{ path: "a.c", diagnostics: [diagnostic("one")] }] } },
      { ok: true, data: { server: "clangd", files: [] } },
    ]);
    join();
    await flush();
    expect(opened).toEqual([]);
    expect(channel.state).toBe("idle");
    channel.start();
    expect(channel.state).toBe("loading");
    await flush();
    expect(channel.state).toBe("ready");
    expect(channel.files.get("a.c")?.map((d) => d.message)).toEqual(["one"]);
    broadcast({ sessionId: "s1", server: "clangd", files: [{ path: "a.c", diagnostics: [] }] });
    expect(channel.files.has("a.c")).toBe(false);
    // After a reconnect's join it opens again.
    join();
    await flush();
    expect(opened).toHaveLength(2);
  });

  it("is quiet when the node has no clangd, and tries a busy node again later", async () => {
    const unavailable = channelWith([
      { ok: false, error: { code: "language_server_unavailable", message: "no" } },
    ]);
    unavailable.channel.start();
    await flush();
    expect(unavailable.channel.state).toBe("unavailable");

    const busy = channelWith([
      { ok: false, error: { code: "language_server_busy", message: "busy" } },
      { ok: true, data: { server: "clangd", files: [] } },
    ]);
    busy.channel.start();
    await flush();
    expect(busy.channel.state).toBe("busy");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(busy.opened).toHaveLength(2);
    expect(busy.channel.state).toBe("ready");
  });
});
