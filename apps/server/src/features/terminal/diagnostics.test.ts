import type { Diagnostic, ExecuteResponse, RunDiagnostics } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { LastDiagnostics } from "./diagnostics";
import { createTerminalService } from "./service";
import { ADA, quietLogger } from "./testing";

const mark: Diagnostic = { path: "src/main.py", line: 3, severity: "error", message: "NameError" };

describe("LastDiagnostics", () => {
  it("keeps a session's last run's diagnostics until the next run clears them", () => {
    const last = new LastDiagnostics(() => true);
    expect(last.set("s1", "run-1", [mark])).toEqual({ sessionId: "s1", runId: "run-1", diagnostics: [mark] });
    expect(last.of("s1")).toEqual({ sessionId: "s1", runId: "run-1", diagnostics: [mark] });
    expect(last.set("s1", undefined, [])).toEqual({ sessionId: "s1", diagnostics: [] });
    expect(last.of("s1")).toEqual({ sessionId: "s1", diagnostics: [] });
  });

  it("forgets a session whose document is no longer loaded", () => {
    const loaded = new Set(["s1", "s2"]);
    const last = new LastDiagnostics((sessionId) => loaded.has(sessionId));
    last.set("s1", "run-1", [mark]);
    loaded.delete("s1");
    last.set("s2", "run-2", [mark]);
    expect(last.of("s1").diagnostics).toEqual([]);
    expect(last.of("s2").diagnostics).toEqual([mark]);
  });

  it("keeps at most a thousand sessions, the oldest forgotten first", () => {
    const last = new LastDiagnostics(() => true);
    for (let i = 0; i <= 1000; i++) last.set(`s${i}`, `run-${i}`, [mark]);
    expect(last.of("s0").diagnostics).toEqual([]);
    expect(last.of("s1").diagnostics).toEqual([mark]);
    expect(last.of("s1000").diagnostics).toEqual([mark]);
  });
});

describe("a terminal run's diagnostics", () => {
  const who = ADA;
  const logger = quietLogger();
  const stage = (stderr: string, code: number) => ({
    stdout: "",
    stderr,
    output: stderr,
    code,
    signal: null,
    message: null,
    status: code === 0 ? null : ("RE" as const),
    cpu_time: 1,
    wall_time: 1,
    memory: null,
  });

  /** A terminal whose runs answer `response`, recording what everyone was sent. */
  function terminalAnswering(response: ExecuteResponse) {
    const sent: RunDiagnostics[] = [];
    const files = [
      { path: "src/main.js", content: "" },
      { path: "src/main.c", content: "int main(void) {\n  return y;\n}\n" },
    ];
    const terminal = createTerminalService({
      repo: {
        append: async (_sessionId, entries) => entries.map((entry, i) => ({ ...entry, seq: i + 1 })),
        clear: async () => {},
        history: async () => [],
        timed: async () => [],
      },
      execution: { runProject: async () => response },
      sessions: { language: async () => "javascript", assertOpen: async () => {} },
      workspace: { files: () => files, isLoaded: () => true },
      broadcast: { update: () => {}, result: () => {}, runState: () => {}, diagnostics: (d) => sent.push(d) },
      logger,
      liveTimeoutMs: 10_000,
    });
    return { terminal, sent };
  }

  it("marks a failed compile's errors (no run stage) for everyone, after clearing the last run's", async () => {
    const gcc = "/box/src/main.c:2:10: error: ‘y’ undeclared (first use in this function)\n";
    const { terminal, sent } = terminalAnswering({
      language: "c",
      version: "12.2.0",
      compile: stage(gcc, 1),
      run: stage("", 0),
    });
    await terminal.runCode("s1", who, {});
    expect(sent).toEqual([
      { sessionId: "s1", diagnostics: [] },
      {
        sessionId: "s1",
        runId: expect.any(String),
        diagnostics: [
          {
            path: "src/main.c",
            line: 2,
            column: 10,
            severity: "error",
            message: "‘y’ undeclared (first use in this function)",
          },
        ],
      },
    ]);
    expect(terminal.diagnostics("s1")).toEqual(sent[1]);
  });

  it("sends nothing more for a run with nothing to mark", async () => {
    const { terminal, sent } = terminalAnswering({
      language: "javascript",
      version: "20",
      run: stage("", 0),
    });
    await terminal.runCode("s1", who, {});
    expect(sent).toEqual([{ sessionId: "s1", diagnostics: [] }]);
  });
});
