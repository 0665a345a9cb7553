import type { Server as HttpServer, IncomingMessage } from "node:http";
import os from "node:os";
import type { Duplex } from "node:stream";
import {
  AUTH_MESSAGES,
  EXECUTION_LIMITS,
  EXECUTION_MESSAGES,
  ExecuteRequestSchema,
  findNul,
  LIMITS,
  nulRefusal,
} from "@ensemble/protocol";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { z } from "zod";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import { type ExecuteCaller, upgradeAddress } from "./caller";
import { isRunCancelled } from "./errors";
import { LiveIo } from "./liveIo";
import type { ExecutionService } from "./service";

/** Piston's interactive endpoint, beside `/api/v2/execute`. */
export const CONNECT_PATH = "/api/v2/connect";

/** Piston's close codes for `/api/v2/connect`, with its reasons. */
export const CONNECT_CLOSE = {
  alreadyInitialized: [4000, "Already Initialized"],
  initializationTimeout: [4001, "Initialization Timeout"],
  notifiedError: [4002, "Notified Error"],
  notInitialized: [4003, "Not yet initialized"],
  stdinOnly: [4004, "Can only write to stdin"],
  invalidSignal: [4005, "Invalid signal"],
  jobCompleted: [4999, "Job Completed"],
} as const;

/**
 * Signals one connection may send: each one reads the process table to find the program's
 * processes, so a flood of them would cost the server, not the run.
 */
const MAX_SIGNALS = 16;

/** Piston closes a connection that sent no `init` within a second. */
const INIT_TIMEOUT_MS = 1000;
const SIGNALS = new Set<string>(Object.keys(os.constants.signals));

/** Every client message: a JSON object with a type; the rest is read per type. */
const MessageSchema = z.looseObject({ type: z.string() });
const DataSchema = z.object({ stream: z.unknown(), data: z.string({ error: "data must be a string" }) });

function isSignal(name: unknown): name is NodeJS.Signals {
  return typeof name === "string" && SIGNALS.has(name);
}

/**
 * Serves Piston's WebSocket API (`init`, then `data` on stdin and `signal`; answered with
 * `runtime`, `stage`, `data` on stdout and stderr, `exit`, and `error`) for the callers
 * `/api/v2/execute` takes (the upgrade request's Authorization, or none with EXECUTE_ANONYMOUS), with `/api/v2/execute`'s validation, limits and
 * per-user rate, and a bound on the stdin a run takes. A closed connection cancels its run.
 */
export function mountPistonConnect(
  httpServer: HttpServer,
  execution: Pick<ExecutionService, "execute">,
  callerOf: ExecuteCaller,
  logger: Logger,
  trustProxy = false,
) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIMITS.jsonBodyBytes });

  httpServer.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== CONNECT_PATH) return;
    void callerOf(req.headers.authorization, upgradeAddress(req, trustProxy)).then(
      (rateKey) => wss.handleUpgrade(req, socket, head, (ws) => serve(ws, rateKey)),
      (error: unknown) =>
        refuseUpgrade(socket, error instanceof DomainError ? error.message : AUTH_MESSAGES.invalidToken),
    );
  });

  function serve(ws: WebSocket, rateKey: string) {
    let job: LiveIo | undefined;
    let inputBytes = 0;
    let signals = 0;
    const cancel = new AbortController();
    const send = (message: object) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    };
    const close = ([code, reason]: readonly [number, string]) => {
      if (ws.readyState === WebSocket.OPEN) ws.close(code, reason);
    };
    const timer = setTimeout(() => {
      if (!job) close(CONNECT_CLOSE.initializationTimeout);
    }, INIT_TIMEOUT_MS);
    ws.on("close", () => {
      clearTimeout(timer);
      cancel.abort();
    });
    ws.on("error", () => {});

    async function init(message: z.infer<typeof MessageSchema>) {
      if (job) return close(CONNECT_CLOSE.alreadyInitialized);
      const nulAt = findNul(message);
      if (nulAt !== undefined)
        throw new DomainError("invalid_payload", nulRefusal(nulAt, "The init message"));
      // As Piston: the init body is execute's, and its stdin is ignored (stdin comes as data).
      const parsed = ExecuteRequestSchema.safeParse({ ...message, stdin: undefined });
      if (!parsed.success)
        throw new DomainError("invalid_payload", parsed.error.issues[0]?.message ?? "Invalid init message");
      const io = new LiveIo(
        (stream, data) => send({ type: "data", stream, data }),
        (stage, exit) => send(exit ? { type: "exit", stage, ...exit } : { type: "stage", stage }),
      );
      job = io;
      const response = await execution.execute(parsed.data, {
        signal: cancel.signal,
        rateKey,
        io,
        onStart: (runtime) => send({ type: "runtime", language: runtime.language, version: runtime.version }),
      });
      if (response.run)
        send({ type: "exit", stage: "run", code: response.run.code, signal: response.run.signal });
      close(CONNECT_CLOSE.jobCompleted);
    }

    function data(message: z.infer<typeof MessageSchema>) {
      if (!job) return close(CONNECT_CLOSE.notInitialized);
      if (message.stream !== "stdin") return close(CONNECT_CLOSE.stdinOnly);
      const parsed = DataSchema.safeParse(message);
      if (!parsed.success)
        throw new DomainError("invalid_payload", parsed.error.issues[0]?.message ?? "Invalid data message");
      inputBytes += Buffer.byteLength(parsed.data.data);
      if (inputBytes > EXECUTION_LIMITS.stdinRunMaxBytes)
        throw new DomainError("invalid_payload", EXECUTION_MESSAGES.inputTooMuch);
      job.write(parsed.data.data);
    }

    function signal(message: z.infer<typeof MessageSchema>) {
      if (!job) return close(CONNECT_CLOSE.notInitialized);
      if (!isSignal(message.signal)) return close(CONNECT_CLOSE.invalidSignal);
      signals += 1;
      if (signals > MAX_SIGNALS)
        throw new DomainError("invalid_payload", `A run takes at most ${MAX_SIGNALS} signals.`);
      job.signal(message.signal);
    }

    ws.on("message", (raw: RawData, isBinary: boolean) => {
      void (async () => {
        try {
          const message = isBinary ? undefined : parseMessage(raw);
          if (!message) throw new DomainError("invalid_payload", "Messages must be JSON objects with a type");
          if (message.type === "init") await init(message);
          else if (message.type === "data") data(message);
          else if (message.type === "signal") signal(message);
          else
            throw new DomainError(
              "invalid_payload",
              `Unknown message type: ${String(message.type).slice(0, 40)}`,
            );
        } catch (error) {
          if (isRunCancelled(error)) return;
          // A refusal of ours is expected, anything else is logged; either way the client is told
          // as an `error` message, then closed with 4002, as Piston does.
          if (!(error instanceof DomainError)) {
            logger.error({ err: error }, "piston connect: run failed");
          }
          send({ type: "error", message: error instanceof Error ? error.message : String(error) });
          close(CONNECT_CLOSE.notifiedError);
        }
      })();
    });
  }

  return {
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function parseMessage(raw: RawData): z.infer<typeof MessageSchema> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch {
    return undefined;
  }
  const parsed = MessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Answers a refused upgrade as the REST API would: 401 with `{ code, message }`. */
function refuseUpgrade(socket: Duplex, message: string) {
  const body = JSON.stringify({ code: "unauthenticated", message });
  socket.end(
    `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
