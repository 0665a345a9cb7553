import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { type Language, type TerminalEntry, WORKSPACE_LIMITS } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { createLimiters } from "../../limiter";
import type { WorkspaceFile } from "../collab/index";
import { remoteRunnerFailed, runCancelled, runRateLimited } from "../execution/errors";
import type { ExecutionService } from "../execution/index";
import { createExecutionService } from "../execution/service";
import type { TerminalRepo } from "./repo";
import { createTerminalService } from "./service";
import { ADA, quietLogger } from "./testing";

const SESSION = "project-session";
const who = ADA;
const logger = quietLogger();

/** A terminal over a fake workspace and an in-memory history; runs go to `execution`. */
function terminalOver(
  execution: Pick<ExecutionService, "runProject">,
  files: WorkspaceFile[] | undefined,
  language: Language = "javascript",
) {
  let seq = 0;
  const results: TerminalEntry[][] = [];
  const updates: TerminalEntry[] = [];
  const repo: TerminalRepo = {
    append: async (_sessionId, entries) => entries.map((entry) => ({ ...entry, seq: ++seq })),
    clear: async () => {},
    history: async () => [],
    timed: async () => [],
  };
  const terminal = createTerminalService({
    repo,
    execution,
    sessions: { language: async () => language, assertOpen: async () => {} },
    workspace: {
      files: (sessionId) => (sessionId === SESSION ? files : undefined),
      isLoaded: (sessionId) => sessionId === SESSION,
    },
    broadcast: {
      update: (_sessionId, entries) => updates.push(...entries),
      result: (_sessionId, entries) => results.push(entries),
      runState: () => {},
      diagnostics: () => {},
    },
    logger,
    liveTimeoutMs: 10_000,
  });
  /**
   * What everyone read of one run: its output as it came, then its result line. The terminal
   * asks for colour (diagnostics.int.test checks those bytes); here only the text counts.
   */
  const shown = async (input: { file?: string }) => {
    updates.length = 0;
    const { entries } = await terminal.runCode(SESSION, who, input);
    return joined([...updates.filter((entry) => entry.type !== "input"), ...entries]).map((entry) => ({
      ...entry,
      content: stripVTControlCharacters(entry.content),
    }));
  };
  return { terminal, results, shown };
}

const contents = (entries: TerminalEntry[]) => entries.map(({ type, content }) => ({ type, content }));

/** Entries with neighbours of one type joined: a live run's output may come in any number of pieces. */
const joined = (entries: TerminalEntry[]) =>
  contents(entries).reduce<{ type: TerminalEntry["type"]; content: string }[]>((all, entry) => {
    const last = all.at(-1);
    if (last?.type === entry.type) last.content += entry.content;
    else all.push({ ...entry });
    return all;
  }, []);

// The real sandbox: the whole workspace is written into the work folder and the entry runs there.
describe("Run Code runs the session's project in the sandbox", () => {
  let execution: ExecutionService;
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-project-"));
    const config = loadConfig({ RUN_RATE_MAX: "1000", DATA_DIR: dataDir });
    execution = createExecutionService(config, createLimiters(logger), logger);
  });
  afterAll(async () => {
    await execution.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs src/main.js, which requires a module in a subfolder", async () => {
    const { shown } = terminalOver(execution, [
      { path: "README.md", content: "# demo" },
      { path: "src/lib/util.js", content: "exports.twice = (n) => n * 2;" },
      { path: "src/main.js", content: "const { twice } = require('./lib/util');\nconsole.log(twice(21));" },
    ]);
    expect(await shown({})).toEqual([{ type: "output", content: "42\n" }]);
  });

  it("runs src/main.py, which imports a sibling module and a module in a subfolder", async () => {
    const { shown } = terminalOver(
      execution,
      [
        {
          path: "src/main.py",
          content: "from helper import twice\nfrom lib.more import half\nprint(twice(21), half(8))",
        },
        { path: "src/helper.py", content: "def twice(n):\n    return n * 2" },
        { path: "src/lib/more.py", content: "def half(n):\n    return n // 2" },
      ],
      "python",
    );
    expect(await shown({})).toEqual([{ type: "output", content: "42 4\n" }]);
  });

  it("runs the open file when it is runnable, with the language of its extension", async () => {
    const files = [
      { path: "src/main.js", content: "console.log('main')" },
      { path: "tools/report.py", content: "import os\nprint('report', os.path.basename(__file__))" },
      { path: "web/app.mjs", content: "import { name } from './lib/name.mjs';\nconsole.log(name)" },
      { path: "web/lib/name.mjs", content: "export const name = 'esm';" },
      { path: "notes.txt", content: "not code" },
    ];
    const { shown } = terminalOver(execution, files, "javascript");
    const run = (file: string) => shown({ file });
    expect(await run("tools/report.py")).toEqual([{ type: "output", content: "report report.py\n" }]);
    expect(await run("web/app.mjs")).toEqual([{ type: "output", content: "esm\n" }]);
    // Not runnable: the session language's main file runs instead.
    expect(await run("notes.txt")).toEqual([{ type: "output", content: "main\n" }]);
  });

  it("compiles a C project of the entry's folder once; a re-run of the same sources reuses the program", async () => {
    const files = [
      {
        path: "src/main.c",
        content: '#include <stdio.h>\n#include "greet.h"\nint main(void) { greet(); return 0; }\n',
      },
      { path: "src/greet.h", content: '#define WHO "C"\nvoid greet(void);\n' },
      {
        path: "src/greet.c",
        content: '#include <stdio.h>\n#include "greet.h"\nvoid greet(void) { printf("hi " WHO "\\n"); }\n',
      },
    ];
    const { terminal, shown } = terminalOver(execution, files, "c");
    const first = await terminal.runCode(SESSION, who, {});
    expect(first.response?.compile).toMatchObject({ code: 0 });
    expect(first.response?.compile?.cached).toBeUndefined();
    expect(first.response?.run?.stdout).toBe("hi C\n");
    const again = await terminal.runCode(SESSION, who, {});
    expect(again.response?.compile?.cached).toBe(true);
    expect(again.response?.run?.stdout).toBe("hi C\n");
    // A changed header is a changed build.
    files[1] = { path: "src/greet.h", content: '#define WHO "header"\nvoid greet(void);\n' };
    const changed = await terminal.runCode(SESSION, who, {});
    expect(changed.response?.compile?.cached).toBeUndefined();
    expect(changed.response?.run?.stdout).toBe("hi header\n");
    // A compile error is shown as the compiler printed it, then why nothing ran.
    files[0] = { path: "src/main.c", content: "int main(void) { return missing; }\n" };
    const failed = await shown({});
    expect(failed).toEqual([
      {
        type: "error",
        content: expect.stringMatching(
          /src\/main\.c:1:\d+: error: .missing. undeclared.*Compilation failed: exited with error status 1$/s,
        ),
      },
    ]);
  });

  it("runs a workspace of as many files as a session holds, each in the work folder", async () => {
    const files = [
      { path: "src/main.js", content: "console.log(require('fs').readdirSync('src/lib').length)" },
      ...Array.from({ length: WORKSPACE_LIMITS.maxFiles - 1 }, (_, i) => ({
        path: `src/lib/f${i}.js`,
        content: `module.exports = ${i};`,
      })),
    ];
    const { shown } = terminalOver(execution, files);
    expect(await shown({})).toEqual([{ type: "output", content: `${WORKSPACE_LIMITS.maxFiles - 1}\n` }]);
  });

  it("says so when the file to run does not exist, without running anything", async () => {
    const { terminal, results } = terminalOver(execution, [{ path: "src/main.js", content: "" }], "python");
    const { response, entries } = await terminal.runCode(SESSION, who, {});
    expect(response).toBeUndefined();
    expect(contents(entries)).toEqual([
      { type: "error", content: 'Execution failed: "src/main.py" does not exist.' },
    ]);
    expect(results).toEqual([entries]);
    const gone = await terminal.runCode(SESSION, who, { file: "src/gone.js" });
    expect(contents(gone.entries)).toEqual([
      { type: "error", content: 'Execution failed: "src/gone.js" does not exist.' },
    ]);
  });
});

describe("Run Code failures in the terminal's words", () => {
  const failing = (error: Error) =>
    terminalOver({ runProject: () => Promise.reject(error) }, [{ path: "src/main.js", content: "" }])
      .terminal;

  it("shows a Piston server's error status as it is, and other refusals as Execution failed", async () => {
    const remote = await failing(remoteRunnerFailed("API responded with status: 500", 500)).runCode(
      SESSION,
      who,
      {},
    );
    expect(contents(remote.entries)).toEqual([{ type: "error", content: "API responded with status: 500" }]);
    const unreachable = await failing(
      remoteRunnerFailed("The Piston server is unreachable (ECONNREFUSED)"),
    ).runCode(SESSION, who, {});
    expect(unreachable.entries[0]?.content).toBe(
      "Execution failed: The Piston server is unreachable (ECONNREFUSED)",
    );
    const limited = await failing(runRateLimited(30)).runCode(SESSION, who, {});
    expect(limited.entries[0]?.content).toBe(
      "Execution failed: Too many runs. Please wait a minute before running code again.",
    );
  });

  it("shows an unexpected failure as Error executing code, and lets a cancelled run end without a result", async () => {
    const broken = await failing(new Error("boom")).runCode(SESSION, who, {});
    expect(contents(broken.entries)).toEqual([{ type: "error", content: "Error executing code: boom" }]);
    await expect(failing(runCancelled()).runCode(SESSION, who, {})).rejects.toMatchObject({
      code: "cancelled",
    });
  });
});
