import {
  type Ack,
  EXECUTION_LIMITS,
  EXECUTION_MESSAGES,
  type Joined,
  type TerminalEntry,
} from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";

type Stamped = TerminalEntry & { at: number };

const emitAck = <T = unknown>(socket: Socket, event: string, payload: unknown) =>
  new Promise<Ack<T>>((resolve) =>
    socket.timeout(20_000).emit(event, payload, (_err: unknown, ack: Ack<T>) => resolve(ack)),
  );

/**
 * Live runs over real sockets and the real sandbox: output reaches everyone as it is written,
 * lines typed reach the program, Stop interrupts it, and only those allowed may type.
 */
describe.each(DATABASES)("live runs on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind, { RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /** Every entry an editor received live, stamped with when it arrived. */
  function recordEntries(editor: TestEditor): Stamped[] {
    const seen: Stamped[] = [];
    editor.socket.on(
      "terminalUpdate",
      ({ entry, entries }: { entry?: TerminalEntry; entries?: TerminalEntry[] }) => {
        for (const e of entries ?? (entry ? [entry] : [])) seen.push({ ...e, at: Date.now() });
      },
    );
    return seen;
  }
  const text = (entries: TerminalEntry[], type: TerminalEntry["type"] = "output") =>
    entries
      .filter((e) => e.type === type)
      .map((e) => e.content)
      .join("");

  /** A session whose main file is `code` in `language`, with its host and a guest (an editor). */
  async function sessionWith(code: string, language: "javascript" | "python" = "python") {
    const session = await editors.hostAndGuest(server.api, "live");
    const { host, guest, sessionId } = session;
    if (language === "python") {
      expect((await host.request("languageUpdate", { sessionId, language: "python" })).ok).toBe(true);
      await waitFor(() => host.text("src/main.py") !== "");
    }
    const file = host.file(language === "python" ? "src/main.py" : "src/main.js");
    file.delete(0, file.length);
    file.insert(0, code);
    const path = language === "python" ? "src/main.py" : "src/main.js";
    await waitFor(() => guest.text(path) === code, 5000, "the code to reach the guest");
    return { ...session, hostSeen: recordEntries(host), guestSeen: recordEntries(guest), file: path };
  }
  const run = (editor: TestEditor, sessionId: string, file: string) =>
    emitAck<{ run: { stdout: string; status: string | null } }>(editor.socket, "runCode", {
      sessionId,
      file,
    });
  const result = (editor: TestEditor) =>
    (editor.received.get("executionResult") ?? []) as { terminalEntries: TerminalEntry[] }[];

  it("shows each line to another participant as it is written, in order: the first within 300 ms", async () => {
    // Each line carries the time the program wrote it (one clock: the same machine).
    const code =
      "import time\nfor i in range(6):\n    print(f'tick {i} {time.time() * 1000:.0f}')\n    time.sleep(0.2)\n";
    const { sessionId, host, guest, guestSeen, file } = await sessionWith(code);
    const ack = await run(host, sessionId, file);
    expect(ack).toMatchObject({ ok: true, data: { run: { status: null } } });
    // The guest's output comes before its result, not necessarily before the host's ack.
    await waitFor(() => result(guest).length === 1);
    const lines = text(guestSeen).trim().split("\n");
    expect(lines.map((line) => line.split(" ")[1])).toEqual(["0", "1", "2", "3", "4", "5"]);
    const arrivals = guestSeen.filter((e) => e.type === "output");
    const firstWrite = Number(lines[0]?.split(" ")[2]);
    const firstArrival = arrivals[0]?.at ?? Number.POSITIVE_INFINITY;
    expect(firstArrival - firstWrite).toBeLessThan(300);
    // Streamed, not delivered at the end: the first line came a second before the last.
    expect((arrivals.at(-1)?.at ?? 0) - firstArrival).toBeGreaterThan(700);
  });

  it("answers a Python program's two questions from the terminal; everyone sees the inputs and the answer", async () => {
    const code = "name = input('name? ')\nage = input('age? ')\nprint(f'{name} is {age}')\n";
    const { sessionId, host, guest, hostSeen, guestSeen, file } = await sessionWith(code);
    const running = run(host, sessionId, file);
    await waitFor(() => text(guestSeen).includes("name? "), 10_000, "the first question");
    expect(await host.request("runInput", { sessionId, line: "Ada" })).toEqual({
      ok: true,
      data: null,
    });
    await waitFor(() => text(guestSeen).includes("age? "), 10_000, "the second question");
    expect(await host.request("runInput", { sessionId, line: "36" })).toEqual({
      ok: true,
      data: null,
    });
    expect(await running).toMatchObject({ ok: true, data: { run: { stdout: "name? age? Ada is 36\n" } } });
    for (const [editor, seen] of [
      [host, hostSeen],
      [guest, guestSeen],
    ] as const) {
      await waitFor(() => result(editor).length === 1);
      expect(seen.filter((e) => e.type === "input").map((e) => e.content)).toEqual(["$ run", "Ada", "36"]);
      expect(text(seen)).toBe("name? age? Ada is 36\n");
    }
    // The history a reload gets holds the same, in the same order.
    const history = await server.app.terminal.service.history(sessionId);
    expect(history.map((e) => e.seq)).toEqual(hostSeen.map((e) => e.seq));
  });

  it("lets only the starter type until they allow everyone; a viewer never; Ctrl+D ends the input", async () => {
    const code = "import sys\nprint('ready', flush=True)\nprint('got', sys.stdin.read().split())\n";
    const { sessionId, host, guest, guestSeen, file } = await sessionWith(code);
    const viewer = await editors.open();
    const viewerJoin = (await viewer.join(sessionId)) as Ack<Joined>;
    const viewerId = viewerJoin.ok ? viewerJoin.data.self.id : "";
    expect((await host.request("setRole", { sessionId, participantId: viewerId, role: "viewer" })).ok).toBe(
      true,
    );
    expect(await guest.request("runInput", { sessionId, line: "early" })).toMatchObject({
      ok: false,
      error: { code: "conflict", message: EXECUTION_MESSAGES.notRunning },
    });

    const running = run(host, sessionId, file);
    await waitFor(() => text(guestSeen).includes("ready"), 10_000, "the program to start");
    // Forged events from the others: refused, and nothing reaches the program.
    expect(await guest.request("runInput", { sessionId, line: "guest" })).toEqual({
      ok: false,
      error: { code: "forbidden", message: EXECUTION_MESSAGES.inputNotAllowed },
    });
    expect(await guest.request("closeRunInput", { sessionId })).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await guest.request("setRunInputAccess", { sessionId, othersMayType: true })).toEqual({
      ok: false,
      error: { code: "forbidden", message: EXECUTION_MESSAGES.onlyStarter },
    });
    for (const [event, payload] of [
      ["runInput", { sessionId, line: "viewer" }],
      ["closeRunInput", { sessionId }],
      ["stopRun", { sessionId }],
      ["setRunInputAccess", { sessionId, othersMayType: true }],
    ] as const) {
      expect(await emitAck(viewer.socket, event, payload), event).toMatchObject({
        ok: false,
        error: { code: "read_only" },
      });
    }
    // The starter allows everyone: everyone is told, and the guest's line reaches the program.
    expect(await host.request("setRunInputAccess", { sessionId, othersMayType: true })).toEqual({
      ok: true,
      data: null,
    });
    await waitFor(() =>
      (guest.received.get("runStateUpdate") ?? []).some(
        (s) => (s as { othersMayType?: boolean }).othersMayType === true,
      ),
    );
    expect(await guest.request("runInput", { sessionId, line: "from guest" })).toEqual({
      ok: true,
      data: null,
    });
    expect(await viewer.request("runInput", { sessionId, line: "viewer" })).toMatchObject({
      ok: false,
    });
    expect(await host.request("runInput", { sessionId, line: "from host" })).toEqual({
      ok: true,
      data: null,
    });
    expect(await guest.request("closeRunInput", { sessionId })).toEqual({ ok: true, data: null });
    expect(await running).toMatchObject({
      ok: true,
      data: { run: { stdout: "ready\ngot ['from', 'guest', 'from', 'host']\n" } },
    });
    expect(guestSeen.filter((e) => e.type === "input").map((e) => e.content)).toEqual([
      "$ run",
      "from guest",
      "from host",
      "^D",
    ]);
  });

  it("Stop ends a busy loop for everyone with SIGINT, and the result line names who stopped it", async () => {
    const code = "print('spinning', flush=True)\nwhile True:\n    pass\n";
    const { sessionId, host, guest, guestSeen, file } = await sessionWith(code);
    const running = run(host, sessionId, file);
    await waitFor(() => text(guestSeen).includes("spinning"), 10_000, "the loop to start");
    const stopped = Date.now();
    expect(await guest.request("stopRun", { sessionId })).toEqual({ ok: true, data: null });
    expect(await running).toMatchObject({ ok: true, data: { run: { status: "SG" } } });
    // SIGINT sufficed: well before the 2 s kill (and the 120 s time limit).
    expect(Date.now() - stopped).toBeLessThan(EXECUTION_LIMITS.stopGraceMs + 3000);
    for (const editor of [host, guest]) {
      await waitFor(() => result(editor).length === 1);
      expect(result(editor)[0]?.terminalEntries).toMatchObject([
        { type: "error", content: "Stopped by Anonymous." },
      ]);
      await waitFor(() => (editor.received.get("runStateUpdate") ?? []).length === 2);
      expect(editor.received.get("runStateUpdate")?.[1]).toEqual({ sessionId, isRunning: false, by: null });
    }
    expect(text(guestSeen, "error")).toContain("KeyboardInterrupt");
    expect(await guest.request("stopRun", { sessionId })).toMatchObject({
      ok: false,
      error: { code: "conflict" },
    });
  });

  it("bounds input: a too-long or multi-line line is refused, and so is input past the run's total", async () => {
    const code = "import sys\nprint('ready', flush=True)\nprint(len(sys.stdin.read()))\n";
    const { sessionId, host, hostSeen, file } = await sessionWith(code);
    const running = run(host, sessionId, file);
    await waitFor(() => text(hostSeen).includes("ready"), 10_000, "the program to start");
    const max = EXECUTION_LIMITS.stdinLineMax;
    expect(await host.request("runInput", { sessionId, line: "x".repeat(max + 1) })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload", message: expect.stringContaining(EXECUTION_MESSAGES.inputTooLong) },
    });
    expect(await host.request("runInput", { sessionId, line: "a\nb" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    // Full lines until the budget is spent (waiting out the command rate where it refuses).
    const line = "y".repeat(max);
    let accepted = 0;
    for (;;) {
      const ack = await host.request("runInput", { sessionId, line });
      if (!ack.ok && ack.error.code === "rate_limited") {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      if (!ack.ok) {
        expect(ack.error).toEqual({ code: "limit", message: EXECUTION_MESSAGES.inputTooMuch });
        break;
      }
      accepted += 1;
    }
    expect(accepted).toBe(Math.floor(EXECUTION_LIMITS.stdinRunMaxBytes / (max + 1)));
    await waitFor(() => hostSeen.filter((e) => e.type === "input").length === accepted + 1);
    expect((await host.request("closeRunInput", { sessionId })).ok).toBe(true);
    // The refused line never reached the program.
    expect(await running).toMatchObject({
      ok: true,
      data: { run: { stdout: `ready\n${accepted * (max + 1)}\n` } },
    });
  });

  it("gives a participant who joins mid-run what was printed so far, then the rest live", async () => {
    const code = "import time\nfor i in range(8):\n    print(f'line {i}')\n    time.sleep(0.25)\n";
    const { sessionId, host, guestSeen, file } = await sessionWith(code);
    const running = run(host, sessionId, file);
    await waitFor(() => text(guestSeen).includes("line 2"), 10_000, "a few lines");
    const late = await editors.open();
    const lateSeen = recordEntries(late);
    await late.join(sessionId);
    late.send("getTerminalHistory", sessionId);
    await waitFor(() => (late.received.get("terminalHistory") ?? []).length === 1);
    await running;
    await waitFor(() => result(late).length === 1);
    const { history } = (late.received.get("terminalHistory") ?? [])[0] as { history: TerminalEntry[] };
    expect(text(history)).toContain("line 2");
    expect(text(history)).not.toContain("line 7");
    // History, then live entries newer than it: every line once, in order.
    const newest = Math.max(...history.map((e) => e.seq ?? 0));
    const shown = [...history, ...lateSeen.filter((e) => (e.seq ?? 0) > newest)];
    expect(text(shown)).toBe(Array.from({ length: 8 }, (_, i) => `line ${i}\n`).join(""));
    const state = (late.received.get("runStateUpdate") ?? [])[0] as { isRunning: boolean };
    expect(state.isRunning).toBe(true);
  });
});
