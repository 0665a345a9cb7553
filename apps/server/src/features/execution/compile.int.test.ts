import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { type Cgroups, detectCgroups } from "./cgroups";
import type { SandboxConfig, SandboxJob, StageLimits } from "./launch";
import { LiveIo } from "./liveIo";
import { sandboxConfig } from "./local";
import { findUnderUsr, type LocalRuntime } from "./runtimes";
import { parkSandbox } from "./sandbox";
import type { Artifact } from "./stages";
import { claimUids } from "./uids";

const MEMORY = 512 * 1024 * 1024;

/**
 * Piston's compile stage in the real sandbox, with gcc as the compiler: the compile and the
 * program share one sandbox, each with its own limits, and a failed compile runs nothing.
 */
describe("the compile stage", () => {
  let cgroups: Cgroups;
  let uids: Awaited<ReturnType<typeof claimUids>> | undefined;
  let config: SandboxConfig;
  let gcc: LocalRuntime;
  let python: string;

  beforeAll(async () => {
    const found = await findUnderUsr("gcc", "/usr/bin");
    const py = await findUnderUsr("python3", "/usr/bin");
    if (!found || !py) throw new Error("gcc and python3 under /usr are needed by these tests");
    python = py;
    gcc = {
      id: "python",
      language: "c",
      version: "12.0.0",
      aliases: [],
      defaultFile: "main.c",
      extensions: ["c"],
      compile: [found, "-Wall", "-O0", "-o", "{out}/{stem}", "{sources}"],
      run: ["{out}/{stem}"],
      env: {},
      extraFiles: [],
      limits: {},
    };
    cgroups = await detectCgroups({ memoryBytes: MEMORY, maxProcesses: 64, nice: 10 });
    if (process.getuid?.() === 0) uids = await claimUids(63_200, 1);
    const defaults = sandboxConfig(loadConfig({}));
    config = { ...defaults, tools: { ...defaults.tools, python: py } };
  });
  afterAll(async () => {
    await cgroups?.close();
    await uids?.release();
  });

  async function run(
    files: Record<string, string>,
    options: {
      compile?: Partial<StageLimits> & { exportMaxBytes?: number };
      artifacts?: Artifact[] | undefined;
      runtime?: LocalRuntime;
      io?: LiveIo;
      stdin?: string;
    } = {},
  ) {
    const box = await parkSandbox(config, { uid: uids?.uids[0], cgroup: await cgroups.prepare(0) });
    const job: SandboxJob = {
      runtime: options.runtime ?? gcc,
      files: Object.entries(files).map(([name, content]) => ({ name, content: Buffer.from(content) })),
      args: ["a b", "c"],
      stdin: options.stdin ?? "Ada\n",
      timeoutMs: 5000,
      cpuTimeMs: 5000,
      memoryBytes: 128 * 1024 * 1024,
      compile: { timeoutMs: 10_000, cpuTimeMs: 10_000, memoryBytes: MEMORY, ...options.compile },
      io: options.io,
      artifacts: options.artifacts,
    };
    try {
      return await box.run(job);
    } finally {
      await box.release();
    }
  }

  const hello = `#include <stdio.h>
#include "greet.h"
int main(int argc, char **argv) {
  char name[64];
  if (scanf("%63s", name) != 1) return 2;
  greet(name);
  for (int i = 1; i < argc; i++) printf("%s%s", argv[i], i + 1 < argc ? "|" : "\\n");
  return 3;
}
`;
  const project = {
    "src/main.c": hello,
    "src/greet.h": "void greet(const char *name);\n",
    "src/greet.c": '#include <stdio.h>\nvoid greet(const char *name) { printf("Hello, %s!\\n", name); }\n',
  };

  it("compiles every source of the entry's folder, then runs the program with stdin and args", async () => {
    const result = await run(project);
    expect(result.compile).toMatchObject({ code: 0, status: null, stdout: "", stderr: "" });
    expect(result.compile?.wall_time).toBeGreaterThan(0);
    expect(result.run).toMatchObject({ stdout: "Hello, Ada!\na b|c\n", code: 3, status: "RE" });
  });

  it("answers a failed compile with its errors and line, and runs nothing", async () => {
    const result = await run({ ...project, "src/main.c": hello.replace("return 3;", "return 3") });
    expect(result.compile?.code).toBe(1);
    expect(result.compile?.status).toBe("RE");
    expect(result.compile?.stderr).toMatch(/main\.c:8:\d+: error/);
    expect(result.run).toBeUndefined();
  });

  it("holds the compile to its own wall clock and memory limit", async () => {
    const sleeper = { ...gcc, compile: [python, "-c", "import time; time.sleep(5)"] };
    const slow = await run(project, { runtime: sleeper, compile: { timeoutMs: 300 } });
    expect(slow.compile).toMatchObject({ status: "TO", signal: "SIGKILL" });
    expect(slow.compile?.wall_time).toBeLessThan(3000);
    expect(slow.run).toBeUndefined();
    if (cgroups.mode === "none") return;
    const hungry = { ...gcc, compile: [python, "-c", "x = bytearray(200 << 20); print(len(x))"] };
    const big = await run(project, { runtime: hungry, compile: { memoryBytes: 64 * 1024 * 1024 } });
    expect(big.compile).toMatchObject({ status: "SG", message: "Memory limit exceeded" });
    expect(big.run).toBeUndefined();
  });

  it("exports a successful compile's program, which a re-run then runs without compiling", async () => {
    const first = await run(project, { compile: { exportMaxBytes: 1 << 20 } });
    expect(first.run?.stdout).toBe("Hello, Ada!\na b|c\n");
    expect(first.artifacts?.map((a) => [a.path, a.mode & 0o700])).toEqual([["main", 0o700]]);
    const elf = first.artifacts?.[0]?.content.subarray(0, 4).toString("latin1");
    expect(elf).toBe("\x7fELF");
    // The sources are not even there to compile: the program alone runs.
    const again = await run({ "src/main.c": "" }, { artifacts: first.artifacts, stdin: "Lin\n" });
    expect(again.compile).toBeUndefined();
    expect(again.run).toMatchObject({ stdout: "Hello, Lin!\na b|c\n", code: 3 });
    // A failed compile exports nothing.
    const broken = await run(
      { ...project, "src/main.c": "int main( {" },
      { compile: { exportMaxBytes: 1 << 20 } },
    );
    expect(broken.compile?.code).toBe(1);
    expect(broken.artifacts).toBeUndefined();
  });

  it("tells a live run's listener each stage in order, the compile's output first", async () => {
    const events: string[] = [];
    const io = new LiveIo(
      (stream, text) => events.push(`${stream}:${text}`),
      (stage, exit) => events.push(exit ? `exit ${stage} ${exit.code}` : `stage ${stage}`),
    );
    const warning = hello.replace("int main", "static int unused(void) { return 0; }\nint main");
    const running = run({ ...project, "src/main.c": warning }, { io });
    io.write("Grace\n");
    const result = await running;
    expect(result.run?.stdout).toBe("Hello, Grace!\na b|c\n");
    expect(events[0]).toBe("stage compile");
    const exit = events.indexOf("exit compile 0");
    expect(exit).toBeGreaterThan(0);
    expect(events.slice(1, exit).join("")).toMatch(
      /^stderr:.*main\.c:3:\d+: warning: .unused. defined but not used/s,
    );
    expect(events[exit + 1]).toBe("stage run");
    expect(events.slice(exit + 2).join("")).toBe("stdout:Hello, Grace!\na b|c\n");
  });
});
