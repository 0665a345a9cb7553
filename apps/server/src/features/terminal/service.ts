import {
  EXECUTION_MESSAGES,
  ExecuteRequestSchema,
  type ExecuteResponse,
  LANGUAGES,
  type RunStateUpdate,
  type TerminalEntry,
} from "@ensemble/protocol";
import { HttpError } from "../../http/errors";
import type { Logger } from "../../logger";
import type { ExecutionService } from "../execution/index";
import type { SessionService } from "../sessions/index";
import { parseCommand, resultEntries } from "./entries";
import type { TerminalRepo } from "./repo";

/** How the terminal reaches everyone in a session (socket.io: the session's room). */
export interface TerminalBroadcast {
  update(sessionId: string, entries: TerminalEntry[]): void;
  result(sessionId: string, entries: TerminalEntry[]): void;
  runState(state: RunStateUpdate): void;
}

/** Thrown when a session's run is refused; the message is for people. */
export class TerminalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Runner {
  name: string;
  rateKey: string;
  signal?: AbortSignal;
}

export interface TerminalDeps {
  repo: TerminalRepo;
  execution: ExecutionService;
  sessions: SessionService;
  /** The session's live text of a file, as every participant sees it now. */
  liveText(sessionId: string, file: string): string | undefined;
  broadcast: TerminalBroadcast;
  logger: Logger;
}

/**
 * The shared terminal of each session. Runs are single-flight per session (on this process):
 * a second run while one is in flight is refused, and every participant is told when a run
 * starts and ends. Entries are stored first, then broadcast.
 */
export function createTerminalService(deps: TerminalDeps) {
  const { repo, execution, sessions, broadcast, logger } = deps;
  const running = new Map<string, string>();

  async function say(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
    const stored = await repo.append(sessionId, entries);
    broadcast.update(sessionId, stored);
    return stored;
  }

  async function runCode(
    sessionId: string,
    who: Runner,
    input: { stdin?: string | undefined; args?: string[] | undefined; echo: string },
  ): Promise<{ response: ExecuteResponse | undefined; entries: TerminalEntry[] }> {
    if (running.has(sessionId)) throw new TerminalError("run_in_progress", EXECUTION_MESSAGES.inProgress);
    // Claimed before the first await, so two runs racing in one tick cannot both start.
    running.set(sessionId, who.name);
    broadcast.runState({ sessionId, isRunning: true, by: who.name });
    try {
      const language = await sessions.language(sessionId);
      const file = LANGUAGES[language].file;
      await say(sessionId, [{ type: "input", content: input.echo }]);
      const code = deps.liveText(sessionId, file);
      let response: ExecuteResponse | undefined;
      let entries: TerminalEntry[];
      if (code === undefined) {
        entries = [{ type: "error", content: "Execution failed: the session's document is not loaded" }];
      } else {
        try {
          const request = ExecuteRequestSchema.parse({
            language,
            version: "*",
            files: [{ name: file, content: code }],
            stdin: input.stdin,
            args: input.args,
          });
          response = await execution.execute(request, { signal: who.signal, rateKey: who.rateKey });
          entries = resultEntries(response);
        } catch (error) {
          if (who.signal?.aborted) throw error;
          entries = [{ type: "error", content: failureText(error, logger) }];
        }
      }
      const stored = await repo.append(sessionId, entries);
      broadcast.result(sessionId, stored);
      return { response, entries: stored };
    } finally {
      running.delete(sessionId);
      broadcast.runState({ sessionId, isRunning: false, by: null });
    }
  }

  return {
    runCode: (sessionId: string, who: Runner, input: { stdin?: string; args?: string[] }) =>
      runCode(sessionId, who, { ...input, echo: "$ run" }),

    /** A typed line: echoed to everyone, then answered for everyone. */
    async command(sessionId: string, who: Runner, line: string): Promise<TerminalEntry[]> {
      const parsed = parseCommand(line);
      switch (parsed.kind) {
        case "empty":
          return [];
        case "clear": {
          const entry: TerminalEntry = { type: "clear", content: "" };
          await repo.clear(sessionId);
          broadcast.update(sessionId, [entry]);
          return [entry];
        }
        case "run":
          return (await runCode(sessionId, who, { echo: `$ ${line.trim()}` })).entries;
        case "reply": {
          const [, ...reply] = await say(sessionId, [
            { type: "input", content: `$ ${line.trim()}` },
            ...parsed.entries,
          ]);
          return reply;
        }
      }
    },

    history: (sessionId: string) => repo.history(sessionId),

    runState(sessionId: string): RunStateUpdate {
      const by = running.get(sessionId);
      return { sessionId, isRunning: by !== undefined, by: by ?? null };
    },
  };
}

export type TerminalService = ReturnType<typeof createTerminalService>;

/** The spec's execution messages (§8): refusals say why, anything unexpected is logged. */
function failureText(error: unknown, logger: Logger): string {
  if (error instanceof HttpError) {
    return error.message.startsWith("API responded") ? error.message : `Execution failed: ${error.message}`;
  }
  logger.error({ err: error }, "terminal run failed");
  return `Error executing code: ${error instanceof Error ? error.message : String(error)}`;
}
