import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ExecuteResponseSchema, type Language, type Runtime, RuntimeSchema } from "@ensemble/protocol";
import { register } from "../collab/documents";
import { freePort, startServer } from "../collab/servers";
import { sleep } from "../lib/wait";

/** Our production server for the Run Code bench, reached over HTTP only, with a signed-in user. */
export interface RunServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * Starts the production bundle (see collab/servers.ts) with `env` on top of the bench's
 * settings: no rate limit in practice, a queue deep enough for the throughput steps.
 */
export async function startRunServer(env: Record<string, string> = {}, keepStdout = false) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-exec-"));
  const handle = await startServer("ours", {
    port: await freePort(),
    dataDir,
    keepStdout,
    env: { RUN_RATE_MAX: "1000000", RUN_QUEUE_MAX: "64", ...env },
  });
  const token = await register(handle.url, "exec-bench");
  return {
    url: handle.url,
    token,
    stdout: () => handle.stdout(),
    async close() {
      await handle.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The runtimes the server offers (GET /api/v2/runtimes, public). */
export async function runtimesOf(server: RunServer): Promise<Runtime[]> {
  const body: unknown = await (await fetch(`${server.url}/api/v2/runtimes`)).json();
  return RuntimeSchema.array().parse(body);
}

/**
 * What the runner said when it became ready, from its log line at `info` (the cgroups it puts
 * runs in): the server is started for this alone, since at `info` it also logs every request.
 */
export async function runnerReadyLine(): Promise<{ cgroups: string }> {
  const server = await startRunServer({ LOG_LEVEL: "info" }, true);
  try {
    for (let waited = 0; waited < 30_000; waited += 100) {
      for (const line of server.stdout().split("\n")) {
        if (!line.includes("code runner ready")) continue;
        const parsed: unknown = JSON.parse(line);
        const cgroups =
          typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "cgroups") : undefined;
        return { cgroups: typeof cgroups === "string" ? cgroups : "unknown" };
      }
      await sleep(100);
    }
    throw new Error(`the code runner did not say it was ready:\n${server.stdout()}`);
  } finally {
    await server.close();
  }
}

/** One run through POST /api/v2/execute: the round trip (ms) and the sandbox's own `wall_time`. */
export async function execute(
  server: RunServer,
  language: Language,
  content: string,
): Promise<{ roundTripMs: number; wallMs: number; stdout: string }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/v2/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
    body: JSON.stringify({ language, version: "*", files: [{ content }], stdin: "\n" }),
  });
  const body: unknown = await res.json();
  const roundTripMs = performance.now() - started;
  const parsed = ExecuteResponseSchema.safeParse(body);
  const run = parsed.success ? parsed.data.run : undefined;
  if (res.status !== 200 || run?.code !== 0)
    throw new Error(`bad answer ${res.status} ${JSON.stringify(body)}`);
  return { roundTripMs, wallMs: run.wall_time ?? Number.NaN, stdout: run.stdout };
}
