import type { ExecuteRequest, ExecuteResponse, Runtime, StageResult } from "@ensemble/protocol";
import { RuntimeSchema } from "@ensemble/protocol";
import { z } from "zod";
import { badRunRequest, remoteRunnerFailed, runCancelled } from "./errors";
import type { LiveIo } from "./liveIo";
import { executeLive } from "./remoteLive";

const RUNTIMES_TTL_MS = 60_000;

/** A loosely-read Piston answer: older Pistons lack `status`, `message` and the timings. */
const RemoteStageSchema = z.looseObject({
  stdout: z.string().default(""),
  stderr: z.string().default(""),
  output: z.string().default(""),
  code: z.number().nullable().default(null),
  signal: z.string().nullable().default(null),
  message: z.string().nullable().default(null),
  status: z.string().nullable().default(null),
  cpu_time: z.number().nullable().default(null),
  wall_time: z.number().nullable().default(null),
  memory: z.number().nullable().default(null),
});
const RemoteResponseSchema = z.looseObject({
  language: z.string(),
  version: z.string(),
  run: RemoteStageSchema,
  compile: RemoteStageSchema.optional(),
});

/**
 * Forwards runs to a Piston server (`PISTON_URL` is its API base, e.g.
 * `http://piston:2000/api/v2`). Piston's own 400 messages become badRunRequest unchanged;
 * any other failure is a remoteRunnerFailed, with the spec's "API responded with status" text.
 */
export function createRemoteRunner(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, "");
  let cached: { at: number; runtimes: Runtime[] } | undefined;

  async function call(pathname: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${pathname}`, init);
    } catch (error) {
      if (init.signal?.aborted) throw runCancelled();
      throw remoteRunnerFailed(`The Piston server is unreachable (${errorText(error)})`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.status === 400) {
      const message = z.object({ message: z.string() }).safeParse(body);
      throw badRunRequest(message.success ? message.data.message : "Bad request");
    }
    if (!response.ok) {
      throw remoteRunnerFailed(`API responded with status: ${response.status}`, response.status);
    }
    return body;
  }

  return {
    async runtimes(): Promise<Runtime[]> {
      if (cached && Date.now() - cached.at < RUNTIMES_TTL_MS) return cached.runtimes;
      const parsed = z.array(RuntimeSchema).safeParse(await call("/runtimes", { method: "GET" }));
      if (!parsed.success) throw remoteRunnerFailed("The Piston server sent an unreadable runtime list");
      cached = { at: Date.now(), runtimes: parsed.data };
      return parsed.data;
    },

    /** A live run through Piston's WebSocket API (remoteLive.ts). */
    live(request: ExecuteRequest, io: LiveIo, signal?: AbortSignal): Promise<ExecuteResponse> {
      return executeLive(base, request, io, signal);
    },

    async execute(request: ExecuteRequest, signal?: AbortSignal): Promise<ExecuteResponse> {
      const body = await call("/execute", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
        ...(signal ? { signal } : {}),
      });
      const parsed = RemoteResponseSchema.safeParse(body);
      if (!parsed.success) throw remoteRunnerFailed("The Piston server sent an unreadable result");
      const { language, version, run, compile } = parsed.data;
      return { language, version, run: stage(run), ...(compile ? { compile: stage(compile) } : {}) };
    },
  };
}

export type RemoteRunner = ReturnType<typeof createRemoteRunner>;

function stage(s: z.infer<typeof RemoteStageSchema>): StageResult {
  const statuses = ["RE", "SG", "TO", "OL", "EL", "XX"] as const;
  const status = statuses.find((x) => x === s.status) ?? null;
  return {
    stdout: s.stdout,
    stderr: s.stderr,
    output: s.output,
    code: s.code,
    signal: s.signal,
    message: s.message,
    status,
    cpu_time: s.cpu_time,
    wall_time: s.wall_time,
    memory: s.memory,
  };
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : error.message;
  }
  return String(error);
}
