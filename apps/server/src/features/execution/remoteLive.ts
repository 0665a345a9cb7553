import { Writable } from "node:stream";
import type { ExecuteRequest, ExecuteResponse, StageResult } from "@ensemble/protocol";
import WebSocket, { type RawData } from "ws";
import { z } from "zod";
import { badRunRequest, remoteRunnerFailed, runCancelled } from "./errors";
import type { LiveIo } from "./liveIo";

/** What a Piston server sends on `/api/v2/connect`; anything else is ignored. */
const ServerMessageSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("runtime"), language: z.string(), version: z.string() }),
  z.looseObject({ type: z.literal("stage"), stage: z.enum(["compile", "run"]) }),
  z.looseObject({ type: z.literal("data"), stream: z.enum(["stdout", "stderr"]), data: z.string() }),
  z.looseObject({
    type: z.literal("exit"),
    stage: z.enum(["compile", "run"]),
    code: z.number().nullable().default(null),
    signal: z.string().nullable().default(null),
  }),
  z.looseObject({ type: z.literal("error"), message: z.string() }),
]);

interface StageOutput {
  stdout: string;
  stderr: string;
  output: string;
  code: number | null;
  signal: string | null;
}

const emptyStage = (): StageOutput => ({ stdout: "", stderr: "", output: "", code: null, signal: null });

/**
 * A live run on a Piston server, through its WebSocket API (`/api/v2/connect` beside
 * `/execute`): `init` with the request, the program's output to `io` as it comes, what is
 * typed to it as `data` on stdin, Stop as `signal`. The answer is built from what came, as
 * Piston's execute would give it, without the timings Piston's WebSocket does not send.
 * Piston has no message that closes stdin: Ctrl+D reaches the program only as the end of the
 * run. Aborting `signal` closes the connection, which ends the run on the Piston server.
 */
export function executeLive(
  baseUrl: string,
  request: ExecuteRequest,
  io: LiveIo,
  signal?: AbortSignal,
): Promise<ExecuteResponse> {
  const url = `${baseUrl.replace(/^http/, "ws")}/connect`;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(runCancelled());
    const ws = new WebSocket(url, { maxPayload: 16 * 1024 * 1024 });
    const stages: Partial<Record<"compile" | "run", StageOutput>> = {};
    let current: "compile" | "run" = "run";
    let runtime = { language: request.language, version: request.version };
    let isSettled = false;
    const stageOf = (name: "compile" | "run") => {
      const stage = stages[name] ?? emptyStage();
      stages[name] = stage;
      return stage;
    };
    const send = (message: object) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    const settle = (outcome: () => void) => {
      if (isSettled) return;
      isSettled = true;
      signal?.removeEventListener("abort", onAbort);
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(runCancelled()));
    signal?.addEventListener("abort", onAbort, { once: true });

    ws.on("open", () => {
      const { stdin, ...init } = request;
      send({ type: "init", ...init });
      io.attach({
        stdin: new Writable({
          write(chunk: Buffer | string, _encoding, done) {
            send({ type: "data", stream: "stdin", data: chunk.toString() });
            done();
          },
        }),
        signal: (name) => send({ type: "signal", signal: name }),
      });
      // Stdin given with the request (Piston's way) is typed once the program can read it.
      if (stdin) io.write(stdin);
    });

    ws.on("message", (raw: RawData) => {
      const parsed = ServerMessageSchema.safeParse(parseJson(raw));
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === "runtime") runtime = { language: message.language, version: message.version };
      else if (message.type === "stage") {
        current = message.stage;
        stages[current] = emptyStage();
        io.onStage?.(current);
      } else if (message.type === "data") {
        const stage = stageOf(current);
        stage[message.stream] += message.data;
        stage.output += message.data;
        io.onOutput(message.stream, message.data);
      } else if (message.type === "exit") {
        const stage = stageOf(message.stage);
        stage.code = message.code;
        stage.signal = message.signal;
        if (message.stage === "compile")
          io.onStage?.("compile", { code: message.code, signal: message.signal });
      } else {
        // Before any stage the request was refused (Piston's 400); later the run failed.
        const refused = stages.compile === undefined && stages.run === undefined;
        settle(() => reject(refused ? badRunRequest(message.message) : remoteRunnerFailed(message.message)));
      }
    });

    ws.on("close", () =>
      settle(() => {
        const { compile, run } = stages;
        if (!run && !compile)
          return reject(remoteRunnerFailed("The Piston server closed the connection before the run"));
        resolve({
          ...runtime,
          ...(compile ? { compile: result(compile) } : {}),
          ...(run ? { run: result(run) } : {}),
        });
      }),
    );
    ws.on("error", (error) =>
      settle(() => reject(remoteRunnerFailed(`The Piston server is unreachable (${error.message})`))),
    );
  });
}

function result(stage: StageOutput): StageResult {
  return {
    ...stage,
    message: null,
    status: stage.signal ? "SG" : stage.code !== null && stage.code !== 0 ? "RE" : null,
    cpu_time: null,
    wall_time: null,
    memory: null,
  };
}

function parseJson(raw: RawData): unknown {
  try {
    return JSON.parse(raw.toString());
  } catch {
    return undefined;
  }
}
