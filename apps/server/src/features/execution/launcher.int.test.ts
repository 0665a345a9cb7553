import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { type Cgroups, detectCgroups } from "./cgroups";
import type { SandboxConfig, SandboxJob, SandboxSlot } from "./launch";
import { sandboxConfig } from "./local";
import { detectRuntimes, type LocalRuntime } from "./runtimes";
import { parkSandbox } from "./sandbox";
import { claimUids } from "./uids";

const MEMORY = 256 * 1024 * 1024;

/**
 * The parked launcher (sandbox.ts parkSandbox, launcher.py) against the real kernel: it waits
 * inside the slot's cgroups before the run, serves exactly one run, and its own failures are
 * reported as the sandbox failing. The hostile programs are in hostile.int.test.ts.
 */
describe("the parked sandbox launcher", () => {
  let python: LocalRuntime;
  let cgroups: Cgroups;
  let uids: Awaited<ReturnType<typeof claimUids>> | undefined;
  let config: SandboxConfig;

  const job = (content: string, extra: Partial<SandboxJob> = {}): SandboxJob => ({
    runtime: python,
    files: [{ name: "main.py", content: Buffer.from(content) }],
    args: [],
    stdin: "",
    timeoutMs: 5000,
    cpuTimeMs: 5000,
    memoryBytes: MEMORY,
    ...extra,
  });

  async function slot(): Promise<SandboxSlot> {
    return { uid: uids?.uids[0], cgroup: await cgroups.prepare(0) };
  }

  async function members(target: SandboxSlot): Promise<string[]> {
    const files = target.cgroup?.procsFiles ?? [];
    const lists = await Promise.all(files.map((f) => fs.readFile(f, "utf8")));
    return lists.map((l) => l.trim());
  }

  beforeAll(async () => {
    const found = (await detectRuntimes()).runtimes.find((r) => r.id === "python");
    if (!found) throw new Error("python3 under /usr is needed by these tests");
    python = found;
    cgroups = await detectCgroups({ memoryBytes: MEMORY, maxProcesses: 64, nice: 10 });
    if (process.getuid?.() === 0) uids = await claimUids(63_000, 1);
    const defaults = sandboxConfig(loadConfig({}));
    config = { ...defaults, tools: { ...defaults.tools, python: python.run[0] as string } };
  });
  afterAll(async () => {
    await cgroups?.close();
    await uids?.release();
  });

  it("waits inside every cgroup of its slot before the run, and the slot is empty after release", async () => {
    if (cgroups.mode === "none") throw new Error(`these tests need cgroups: ${cgroups.reason}`);
    const target = await slot();
    const box = await parkSandbox(config, target);
    const parked = await members(target);
    expect(parked.length).toBeGreaterThanOrEqual(2);
    // The runs' groups weigh as nice 10 against the server's threads (cgroup v1 cpu controller).
    const cpuProcs = target.cgroup?.procsFiles.find((f) => f.includes("/cpu/"));
    if (cgroups.mode === "v1" && cpuProcs) {
      const shares = await fs.readFile(path.join(path.dirname(path.dirname(cpuProcs)), "cpu.shares"), "utf8");
      expect(Number(shares)).toBe(110);
    }
    expect(new Set(parked).size).toBe(1);
    expect(parked[0]).toMatch(/^\d+$/);

    const { run: result } = await box.run(job("import os\nprint(os.getuid(), os.getppid())"));
    expect(result?.code).toBe(0);
    const [uid] = (result?.stdout ?? "").trim().split(" ");
    expect(Number(uid)).toBe(uids?.uids[0] ?? process.getuid?.());
    await box.release();
    expect(await members(target)).toEqual(parked.map(() => ""));
  });

  it("passes the program no descriptor but stdin, stdout and stderr, even one the server inherited", () => {
    // A server started with an extra open descriptor (as a supervisor or shell may leave one):
    // here fd 40 of a child process that parks a launcher and runs one program.
    const script = `
      const { parkSandbox } = await import(${JSON.stringify(new URL("./sandbox.ts", import.meta.url).href)});
      const { config, runtime, uid, code } = JSON.parse(process.env.LAUNCH);
      const box = await parkSandbox(config, { uid: uid ?? undefined, cgroup: undefined });
      const files = [{ name: "main.py", content: Buffer.from(code) }];
      const job = { runtime, files, args: [], stdin: "", timeoutMs: 5000, cpuTimeMs: 5000, memoryBytes: ${MEMORY} };
      const { run: result } = await box.run(job);
      await box.release();
      process.stdout.write(JSON.stringify(result));`;
    const code =
      "import os\nfor fd in sorted(os.listdir('/proc/self/fd'), key=int):\n  try: print(fd, os.readlink('/proc/self/fd/' + fd))\n  except OSError: pass";
    // Node marks low inherited descriptors close-on-exec itself, not high ones such as 40.
    const node = [process.execPath, "--import", "tsx", "--input-type=module", "-e", script];
    const out = execFileSync("/bin/bash", ["-c", 'exec "$@" 40</dev/null', "bash", ...node], {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        LAUNCH: JSON.stringify({ config, runtime: python, uid: uids?.uids[0] ?? null, code }),
      },
    });
    const result = JSON.parse(out.toString()) as { stdout: string };
    const fds = result.stdout.split("\n").filter(Boolean);
    expect(fds.map((line) => line.split(" ")[0])).toEqual(["0", "1", "2"]);
    expect(fds[0]).toContain("/memfd:ensemble");
  });

  it("serves exactly one run", async () => {
    const box = await parkSandbox(config, await slot());
    expect(box.isReady).toBe(true);
    expect((await box.run(job("print('once')"))).run?.stdout).toBe("once\n");
    expect(box.isReady).toBe(false);
    await expect(box.run(job("print('twice')"))).rejects.toThrow("already used");
    await box.release();
  });

  it("reports its own failure as the sandbox failing, not as the program's result", async () => {
    const box = await parkSandbox(
      { ...config, tools: { ...config.tools, bwrap: "/nonexistent/bwrap" } },
      await slot(),
    );
    await expect(box.run(job("print('never')"))).rejects.toThrow(
      /the sandbox could not start: ensemble-launcher: FileNotFoundError/,
    );
    await box.release();
  });

  it("ends a run whose memory limit is below what it needs as 'Memory limit exceeded'", async () => {
    const box = await parkSandbox(config, await slot());
    const { run: result } = await box.run(job("print('fits')", { memoryBytes: 1024 * 1024 }));
    expect(result).toMatchObject({ status: "SG", message: "Memory limit exceeded", stdout: "" });
    await box.release();
    // The slot is back at the configured limit for the next run.
    const next = await parkSandbox(config, await slot());
    expect((await next.run(job("print('fits')"))).run?.stdout).toBe("fits\n");
    await next.release();
  });

  it("kills an unused launcher on release", async () => {
    if (cgroups.mode === "none") throw new Error(`these tests need cgroups: ${cgroups.reason}`);
    const target = await slot();
    const box = await parkSandbox(config, target);
    const [pid] = await members(target);
    await box.release();
    expect(box.isReady).toBe(false);
    await expect(fs.access(`/proc/${pid}`)).rejects.toThrow();
  });
});
