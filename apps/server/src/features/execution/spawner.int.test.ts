import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createSpawner, killGroup } from "./spawner";

/** Running or sleeping; a zombie waiting for this machine's init to reap it counts as gone. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

const ENV = { PATH: "/usr/bin:/bin" };

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** The helper process that forks the sandbox's launchers for the server (spawner.ts). */
describe("the sandbox spawner", () => {
  let spawner = createSpawner();
  afterEach(async () => {
    await spawner.close();
    spawner = createSpawner();
  });

  it("hands back a process whose pipes and exit work as if spawned here", async () => {
    const child = await spawner.spawn(
      "/usr/bin/python3",
      [
        "-c",
        "import os, sys; print(sys.stdin.read().upper()); print(os.getpgrp() == os.getpid(), file=sys.stderr); sys.exit(3)",
      ],
      ENV,
    );
    expect(child.pid).toBeGreaterThan(0);
    child.stdin.end("hello");
    const [out, err, end] = await Promise.all([readAll(child.stdout), readAll(child.stderr), child.closed]);
    expect(out).toBe("HELLO\n");
    // Detached: its own process group, so the server can kill the whole tree.
    expect(err).toBe("True\n");
    expect(end).toEqual({ code: 3, signal: null });
    expect(child.exit).toEqual({ code: 3, signal: null });
  });

  it("reports a program that cannot start", async () => {
    await expect(spawner.spawn("/nonexistent/program", [], ENV)).rejects.toThrow(/ENOENT/);
    // And keeps serving.
    const child = await spawner.spawn("/usr/bin/cat", [], ENV);
    child.stdin.end("again");
    expect(await readAll(child.stdout)).toBe("again");
    expect(await child.closed).toEqual({ code: 0, signal: null });
  });

  it("keeps its user alive while a process runs, not after: a script that never closes it still exits", () => {
    const script = `
      const { createSpawner } = await import(${JSON.stringify(new URL("./spawner.ts", import.meta.url).href)});
      const child = await createSpawner().spawn("/usr/bin/sh", ["-c", "sleep 0.3; echo late"], { PATH: "/usr/bin:/bin" });
      child.stdout.on("data", (d) => process.stdout.write(d));
      console.log("exit", JSON.stringify(await child.closed));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      timeout: 20_000,
    });
    expect(out.toString()).toBe('late\nexit {"code":0,"signal":null}\n');
  });

  it("does not wait for a pipe that something else holds open after the exit", async () => {
    // The background sleep keeps stdout open for a minute; the test's own timeout is 30 s.
    const child = await spawner.spawn("/usr/bin/sh", ["-c", "sleep 60 & echo started"], ENV);
    child.stdout.on("data", () => {});
    try {
      expect(await child.closed).toEqual({ code: 0, signal: null });
      expect(child.stdout.destroyed).toBe(true);
    } finally {
      killGroup(child.pid);
    }
  });

  it("takes everything it started down with it when the server lets go", async () => {
    const child = await spawner.spawn("/usr/bin/sleep", ["30"], ENV);
    expect(await isRunning(child.pid)).toBe(true);
    await spawner.close();
    expect(await child.closed).toEqual({ code: null, signal: "SIGKILL" });
    expect(await isRunning(child.pid)).toBe(false);
  });
});
