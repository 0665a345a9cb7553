import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { type Cgroups, detectCgroups } from "./cgroups";
import type { SandboxConfig, SandboxJob } from "./launch";
import { LiveIo } from "./liveIo";
import { sandboxConfig } from "./local";
import { detectRuntimes, type LocalRuntime } from "./runtimes";
import { parkSandbox } from "./sandbox";
import { claimUids } from "./uids";

const MEMORY = 256 * 1024 * 1024;

/** A live run in the real sandbox: output as it is written, stdin while it runs, and Stop's signals. */
describe("a live sandboxed run", () => {
  let runtimes: LocalRuntime[];
  let cgroups: Cgroups;
  let uids: Awaited<ReturnType<typeof claimUids>> | undefined;
  let config: SandboxConfig;

  const runtime = (id: string) => {
    const found = runtimes.find((r) => r.id === id);
    if (!found) throw new Error(`${id} under /usr is needed by these tests`);
    return found;
  };

  /** Runs `content` live; `seen` collects each piece of output with the time it arrived. */
  async function runLive(id: string, content: string, io: LiveIo) {
    const box = await parkSandbox(config, { uid: uids?.uids[0], cgroup: await cgroups.prepare(0) });
    const r = runtime(id);
    const job: SandboxJob = {
      runtime: r,
      files: [{ name: r.defaultFile, content: Buffer.from(content) }],
      extraFiles: r.extraFiles,
      args: [],
      stdin: "",
      timeoutMs: 8000,
      cpuTimeMs: 8000,
      memoryBytes: MEMORY,
      io,
    };
    try {
      const { run } = await box.run(job);
      if (!run) throw new Error("an interpreted language always runs");
      return run;
    } finally {
      await box.release();
    }
  }

  const recorder = () => {
    const seen: { stream: string; text: string; at: number }[] = [];
    const io = new LiveIo((stream, text) => seen.push({ stream, text, at: performance.now() }));
    return {
      seen,
      io,
      text: (stream = "stdout") =>
        seen
          .filter((s) => s.stream === stream)
          .map((s) => s.text)
          .join(""),
    };
  };

  beforeAll(async () => {
    runtimes = (await detectRuntimes()).runtimes;
    cgroups = await detectCgroups({ memoryBytes: MEMORY, maxProcesses: 64, nice: 10 });
    if (process.getuid?.() === 0) uids = await claimUids(63_100, 1);
    const defaults = sandboxConfig(loadConfig({}));
    config = { ...defaults, tools: { ...defaults.tools, python: runtime("python").run[0] as string } };
  });
  afterAll(async () => {
    await cgroups?.close();
    await uids?.release();
  });

  it("reports each write as it happens, not at the end", async () => {
    const { seen, io } = recorder();
    const started = performance.now();
    const result = await runLive(
      "python",
      "import time\nfor i in range(3):\n    print(i)\n    time.sleep(0.3)\n",
      io,
    );
    expect(result.stdout).toBe("0\n1\n2\n");
    expect(seen.map((s) => s.text).join("")).toBe("0\n1\n2\n");
    const first = seen[0]?.at ?? Number.POSITIVE_INFINITY;
    // The first line came long before the program's 0.9 s were over.
    expect(first - started).toBeLessThan(performance.now() - started - 500);
  });

  it("passes stdin written while the program runs, and end of file on closeStdin", async () => {
    const { io, text } = recorder();
    const running = runLive(
      "python",
      "a = input('name? ')\nprint('hi', a)\nimport sys\nprint('rest', repr(sys.stdin.read()))\n",
      io,
    );
    await waitFor(() => text().includes("name? "));
    io.write("Ada\n");
    await waitFor(() => text().includes("hi Ada"));
    io.write("more\n");
    io.closeStdin();
    const result = await running;
    expect(result.stdout).toBe("name? hi Ada\nrest 'more\\n'\n");
    expect(result.status).toBeNull();
  });

  it("takes stdin written before the sandbox attached, in order", async () => {
    const { io } = recorder();
    io.write("1\n");
    io.write("2\n");
    io.closeStdin();
    const result = await runLive("python", "import sys\nprint(sys.stdin.read().split())\n", io);
    expect(result.stdout).toBe("['1', '2']\n");
  });

  it("interrupts a Python busy loop with SIGINT (KeyboardInterrupt), well before the time limit", async () => {
    const { io, text } = recorder();
    const started = performance.now();
    const running = runLive("python", "print('go', flush=True)\nwhile True:\n    pass\n", io);
    await waitFor(() => text().includes("go"));
    io.interrupt(2000);
    const result = await running;
    expect(result.stderr).toContain("KeyboardInterrupt");
    expect(result.status).toBe("SG");
    expect(performance.now() - started).toBeLessThan(6000);
  });

  it("kills a program that ignores SIGINT after the grace period", async () => {
    const { io, text } = recorder();
    const running = runLive(
      "javascript",
      "process.on('SIGINT', () => console.log('ignored')); console.log('go'); setInterval(() => {}, 1000);",
      io,
    );
    await waitFor(() => text().includes("go"));
    const stopped = performance.now();
    io.interrupt(500);
    const result = await running;
    expect(result.stdout).toBe("go\nignored\n");
    expect(result.signal).toBe("SIGKILL");
    expect(performance.now() - stopped).toBeGreaterThanOrEqual(450);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 8000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
