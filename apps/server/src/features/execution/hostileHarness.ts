import { execFileSync } from "node:child_process";
import { expect } from "vitest";
import type { ApiResult, BuiltUser, TestServer } from "../../../test/harness";

/** A stage of Piston's answer, as the hostile suites read it. */
export type Run = {
  stdout: string;
  stderr: string;
  output: string;
  code: number | null;
  signal: string | null;
  status: string | null;
  message: string | null;
  truncated: boolean;
  wall_time: number;
};

/**
 * How the hostile suites run a program (docs/sandbox.md lists the outcomes): beside a friendly
 * "canary" run and health probes. The canary must print its line and the server must keep
 * answering, and no process of the sandbox's uids may be left afterwards. The server, user and
 * uids are read when a test runs, after the suite's beforeAll set them.
 */
export function hostileHarness(server: () => TestServer, user: () => BuiltUser, uids: () => number[]) {
  const execute = (
    language: string,
    content: string,
    extra: Record<string, unknown> = {},
  ): Promise<ApiResult> =>
    server().api.post(
      "/api/v2/execute",
      { language, version: "*", files: [{ content }], ...extra },
      user().token,
    );

  async function hostile(
    language: string,
    content: string,
    extra: Record<string, unknown> = {},
  ): Promise<Run> {
    return (await hostileAnswer(language, content, extra)).run as Run;
  }

  /** A hostile program's whole answer: a compiled language's `compile`, and `run` when it ran. */
  async function hostileAnswer(
    language: string,
    content: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ compile?: Run; run?: Run }> {
    const probes: number[] = [];
    let done = false;
    const running = execute(language, content, extra).finally(() => {
      done = true;
    });
    const probing = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${server().url}/api/health`);
        probes.push(res.status === 200 ? performance.now() - started : Number.POSITIVE_INFINITY);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const canary = await execute("python", "print('canary')");
    const res = await running;
    await probing;
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect((canary.body.run as Run).stdout, "a concurrent run is unaffected").toBe("canary\n");
    expect(probes.length, "the server answered while the run went on").toBeGreaterThan(0);
    expect(Math.max(...probes), "every health probe answered").toBeLessThan(2000);
    await noneLeft(uids());
    return res.body as { compile?: Run; run?: Run };
  }

  return { execute, hostile, hostileAnswer };
}

/** Waits until no process of the sandbox's uids is left on the machine. */
export async function noneLeft(uids: number[]) {
  const started = Date.now();
  for (;;) {
    const left = execFileSync("ps", ["-eo", "uid=,pid=,comm="])
      .toString()
      .split("\n")
      .filter((line) => uids.includes(Number(line.trim().split(/\s+/)[0])));
    if (left.length === 0) return;
    if (Date.now() - started > 3000) throw new Error(`sandbox processes left: ${left.join("; ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
