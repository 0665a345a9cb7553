import { type Ack, ErrorCodeSchema, EXECUTION_MESSAGES, type TerminalEntry } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type ServerEventName, type TestEditor, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import { createTerminalRepo } from "./repo";

type RunAck = Ack<{ run: { stdout: string; status: string | null } }>;

const emitAck = <T>(socket: Socket, event: string, payload: unknown) =>
  new Promise<T>((resolve) =>
    socket.timeout(20_000).emit(event, payload, (_err: unknown, ack: T) => resolve(ack)),
  );

const events = <E extends ServerEventName>(editor: TestEditor, name: E) => editor.events(name);

/** The numbers of the stored entries an editor was sent, in the order it got them. */
const received = (editor: TestEditor) =>
  events(editor, "terminalUpdate").flatMap((u) =>
    (u.entries ?? (u.entry ? [u.entry] : [])).map((e) => e.seq ?? 0),
  );

describe.each(DATABASES)("shared terminal on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const editor = (token?: string) => editors.open(token);
  /** A new session with its host and a guest joined and synced. */
  const newSession = () => editors.hostAndGuest(server.api, "terminal");

  beforeAll(async () => {
    server = await startTestServer(kind, { RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("runs the session's live code for a guest and shows everyone the input line and the result", async () => {
    const { sessionId, host, guest } = await newSession();
    const text = host.file();
    text.delete(0, text.length);
    text.insert(0, "console.log('from the doc'); console.error('oops')");
    await waitFor(() => guest.text().includes("from the doc"));
    const ack = await emitAck<RunAck>(guest.socket, "runCode", { sessionId });
    expect(ack).toMatchObject({ ok: true, data: { run: { stdout: "from the doc\n", status: null } } });
    // The sender gets the result once: in the room's broadcast, not again in its ack.
    expect(ack.ok && "terminalEntries" in ack.data).toBe(false);
    // The output reached everyone as it was written (terminalUpdate), before the result,
    // which has nothing left to say for a program that printed and ended well.
    for (const e of [host, guest]) {
      await waitFor(() => events(e, "executionResult").length === 1);
      const updates = (
        events(e, "terminalUpdate") as { entry?: TerminalEntry; entries?: TerminalEntry[] }[]
      ).flatMap((u) => u.entries ?? (u.entry ? [u.entry] : []));
      expect(updates[0]).toMatchObject({ type: "input", content: "$ run" });
      const text = (type: string) =>
        updates
          .filter((u) => u.type === type)
          .map((u) => u.content)
          .join("");
      expect(text("output")).toBe("from the doc\n");
      expect(text("error")).toBe("oops\n");
      // Every stored entry carries the server's order, the same for everyone.
      const seqs = updates.map((entry) => entry.seq ?? 0);
      expect(seqs[0]).toBeGreaterThan(0);
      expect(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] ?? 0))).toBe(true);
      expect(events(e, "executionResult")).toEqual([{ sessionId, terminalEntries: [] }]);
      expect(events(e, "runStateUpdate")).toEqual([
        {
          sessionId,
          isRunning: true,
          by: "Anonymous",
          byId: expect.stringMatching(/^guest-/),
          inputOpen: true,
          othersMayType: false,
        },
        { sessionId, isRunning: false, by: null },
      ]);
    }
  });

  it("is single-flight per session: a second run while one is in flight is refused", async () => {
    const { sessionId, host, guest } = await newSession();
    const text = host.file();
    text.delete(0, text.length);
    text.insert(0, "setTimeout(() => console.log('slow done'), 1500)");
    await waitFor(() => guest.text().includes("slow done"));
    const first = emitAck<RunAck>(host.socket, "runCode", { sessionId });
    await waitFor(() => events(guest, "runStateUpdate").length === 1);
    const second = await emitAck<RunAck>(guest.socket, "runCode", { sessionId });
    expect(second).toEqual({
      ok: false,
      error: { code: "run_in_progress", message: EXECUTION_MESSAGES.inProgress },
    });
    const typed = await emitAck<Ack<unknown>>(guest.socket, "terminalCommand", { sessionId, command: "run" });
    expect(typed).toMatchObject({ ok: false, error: { code: "run_in_progress" } });
    expect(await first).toMatchObject({ ok: true, data: { run: { stdout: "slow done\n" } } });
    // Another session runs meanwhile: the single flight is per session.
    const other = await newSession();
    expect(await emitAck<RunAck>(other.host.socket, "runCode", { sessionId: other.sessionId })).toMatchObject(
      {
        ok: true,
      },
    );
  });

  it("answers terminal commands for everyone and keeps a history for late joiners, cleared by clear", async () => {
    const { sessionId, host, guest } = await newSession();
    const helpText = server.app.terminal.commands.helpText();
    expect(helpText.split("\n").map((line) => line.trim().split(/\s+/)[0])).toEqual([
      "Available",
      "run",
      "clear",
      "help",
      "git",
      "pr",
    ]);
    const help = await emitAck<Ack<null>>(host.socket, "terminalCommand", { sessionId, command: "  help " });
    expect(help).toEqual({ ok: true, data: null });
    await waitFor(() => events(host, "terminalUpdate").length === 1);
    expect(events(host, "terminalUpdate")[0]).toMatchObject({
      entries: [
        { type: "input", content: "$ help" },
        { type: "output", content: helpText },
      ],
    });
    // Commands of other features answer here too (pr), and an unknown one is named.
    await host.request("terminalCommand", { sessionId, command: "pr list" });
    await host.request("terminalCommand", { sessionId, command: "ls -la" });
    await guest.request("terminalCommand", { sessionId, command: "run" });
    await waitFor(() => events(guest, "executionResult").length === 1);

    const late = await editor();
    await late.join(sessionId);
    late.send("getTerminalHistory", sessionId);
    await waitFor(
      () => events(late, "terminalHistory").length === 1 && events(late, "runStateUpdate").length === 1,
    );
    const { history } = events(late, "terminalHistory")[0] as { history: TerminalEntry[] };
    const seqs = history.map((entry) => entry.seq ?? 0);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(history.length);
    expect(history.map(({ type, content }) => ({ type, content }))).toEqual([
      { type: "input", content: "$ help" },
      { type: "output", content: helpText },
      { type: "input", content: "$ pr list" },
      { type: "output", content: "No pull requests yet." },
      { type: "input", content: "$ ls -la" },
      { type: "error", content: "Unknown command: ls. Type 'help' for available commands." },
      { type: "output", content: helpText },
      { type: "input", content: "$ run" },
      { type: "output", content: "Hello, world!\n" },
    ]);
    expect(events(late, "runStateUpdate")[0]).toEqual({ sessionId, isRunning: false, by: null });

    await guest.request("terminalCommand", { sessionId, command: "clear" });
    await waitFor(() => events(host, "terminalUpdate").some((u) => JSON.stringify(u).includes('"clear"')));
    late.send("getTerminalHistory", sessionId);
    await waitFor(() => events(late, "terminalHistory").length === 2);
    expect(events(late, "terminalHistory")[1]).toEqual({ sessionId, history: [] });
  });

  it("answers a command another feature registered, and lists it in help", async () => {
    const { sessionId, host, guest } = await newSession();
    server.app.terminal.commands.register({
      name: "greet",
      summary: "greet someone",
      execute: ({ who, args, reply }) =>
        reply([{ type: "output", content: `hello ${args.join(" ")} from ${who.name}` }]),
    });
    await guest.request("terminalCommand", { sessionId, command: "GREET the room" });
    await host.request("terminalCommand", { sessionId, command: "help" });
    await waitFor(() => events(host, "terminalUpdate").length === 2);
    const [greeting, help] = events(host, "terminalUpdate") as { entries: TerminalEntry[] }[];
    expect(greeting?.entries).toMatchObject([
      { type: "input", content: "$ GREET the room" },
      { type: "output", content: "hello the room from Anonymous" },
    ]);
    expect(help?.entries[1]?.content).toMatch(/^ {2}greet {3}greet someone$/m);
  });

  it("keeps the history bounded and survives NUL bytes in output", async () => {
    const { sessionId, host } = await newSession();
    const text = host.file();
    text.delete(0, text.length);
    text.insert(0, "process.stdout.write('a\\0b')");
    await host.request("runCode", { sessionId });
    const rows = await server.db.query<{ content: string }>(
      "SELECT content FROM terminal_entries WHERE session_id = $1 ORDER BY seq",
      [sessionId],
    );
    expect(rows.map((r) => r.content)).toEqual(["$ run", "a\u2400b"]);
    // An earlier history fills the table (a socket may send only a few commands a second).
    await server.db.query(
      `WITH counter AS (
         UPDATE sessions SET terminal_seq = terminal_seq + 520 WHERE id = $1 RETURNING terminal_seq - 520 AS base
       )
       INSERT INTO terminal_entries (session_id, seq, type, content)
       SELECT $1, counter.base + n, 'output', 'old' FROM counter, generate_series(1, 520) AS n`,
      [sessionId],
    );
    await host.request("terminalCommand", { sessionId, command: "c" });
    const [count] = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM terminal_entries WHERE session_id = $1",
      [sessionId],
    );
    expect(count?.n).toBe(500);
  });

  it("numbers a session's entries in the order they are stored, however many write at once, on any node", async () => {
    const { sessionId, host, guest } = await newSession();
    const bounds = { entries: 10_000, bytes: 10_000_000 };
    // Two repos are two nodes: each serializes its own appends, the database both.
    const nodes = [createTerminalRepo(server.db, bounds), createTerminalRepo(server.db, bounds)];
    const resolved: number[][] = [[], []];
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const node = i % 2;
        return nodes[node]
          ?.append(sessionId, [
            { type: "output", content: `writer ${i} first\n` },
            { type: "output", content: `writer ${i} second\n` },
          ])
          .then((stored) => resolved[node]?.push(...stored.map((e) => e.seq ?? 0)));
      }),
    );
    // Each node's appends resolve (and are broadcast) in the order of their numbers.
    for (const seqs of resolved) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const history = await nodes[0]?.history(sessionId);
    const seqs = history?.map((e) => e.seq) ?? [];
    expect(seqs).toEqual(Array.from({ length: 120 }, (_, i) => (seqs[0] ?? 0) + i));
    // An append's two entries are neighbours: no writer cut in between.
    for (let i = 0; i < 120; i += 2) {
      expect(history?.[i + 1]?.content).toBe(history?.[i]?.content.replace("first", "second"));
    }

    // Through the sockets: what each editor receives only ever goes up by one.
    const before = Math.max(...seqs.map((seq) => seq ?? 0));
    const editors = [host, guest, await editor(), await editor()];
    for (const other of editors.slice(2)) await other.join(sessionId);
    await Promise.all(
      editors.flatMap((typist) =>
        Array.from({ length: 5 }, () => typist.request("terminalCommand", { sessionId, command: "help" })),
      ),
    );
    for (const watcher of editors) {
      await waitFor(() => received(watcher).at(-1) === before + 40);
      const got = received(watcher).filter((seq) => seq > before);
      expect(got).toEqual(Array.from({ length: 40 }, (_, i) => before + 1 + i));
    }
  });

  it("refuses sockets that have not joined the session, and bad payloads", async () => {
    const { sessionId, host } = await newSession();
    const outsider = await editor();
    // A forged run, from a socket that joined no session, with the declared code.
    const forged = await emitAck<Ack<unknown>>(outsider.socket, "runCode", {
      sessionId,
      file: "src/main.js",
    });
    expect(forged).toMatchObject({ ok: false, error: { code: "not_joined" } });
    expect(forged.ok ? undefined : ErrorCodeSchema.parse(forged.error.code)).toBe("not_joined");
    expect(events(host, "runStateUpdate")).toEqual([]);
    expect(await outsider.request("terminalCommand", { sessionId, command: "help" })).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    outsider.send("getTerminalHistory", sessionId);
    await waitFor(() => events(outsider, "socketError").length === 1);
    expect(events(outsider, "terminalHistory")).toEqual([]);
    const member = await editor();
    await member.join(sessionId);
    expect(await emitAck(member.socket, "runCode", { sessionId, args: "not an array" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    for (const file of ["../etc/passwd", "/src/main.js", `${"a".repeat(256)}.js`]) {
      expect(await member.request("runCode", { sessionId, file }), file).toMatchObject({
        ok: false,
        error: { code: "invalid_payload" },
      });
    }
    expect(await member.request("terminalCommand", { sessionId, command: "x".repeat(1001) })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
  });

  it("keeps a run going when its starter's socket goes: back, they see the output so far and still type", async () => {
    const { sessionId, host, guest, hostUser } = await newSession();
    const text = host.file();
    text.delete(0, text.length);
    text.insert(
      0,
      "console.log('waiting'); process.stdin.once('data', (d) => { console.log('got ' + d); process.exit(0); });",
    );
    await waitFor(() => guest.text().includes("waiting"));
    host.socket.emit("runCode", { sessionId }, () => {});
    const output = () => JSON.stringify(events(guest, "terminalUpdate"));
    await waitFor(() => output().includes("waiting"), 10_000, "the program to start");
    host.socket.disconnect();

    const back = await editor(hostUser.token);
    await back.join(sessionId);
    back.send("getTerminalHistory", sessionId);
    await waitFor(() => events(back, "runStateUpdate").length === 1);
    expect(events(back, "runStateUpdate")[0]).toMatchObject({
      sessionId,
      isRunning: true,
      byId: hostUser.user.id,
    });
    expect(JSON.stringify(events(back, "terminalHistory"))).toContain("waiting");
    expect(await back.request("runInput", { sessionId, line: "again" })).toEqual({
      ok: true,
      data: null,
    });
    await waitFor(() => events(guest, "executionResult").length === 1, 10_000, "the run to end");
    expect(output()).toContain("got again");
    expect(events(guest, "runStateUpdate").at(-1)).toEqual({ sessionId, isRunning: false, by: null });
    expect(server.app.execution.service.queue.running).toBe(0);
  });
});
