import {
  EXECUTION_MESSAGES,
  type ExecuteResponse,
  type GithubTarget,
  ROLE_MESSAGES,
  type RunStateUpdate,
  type TerminalEntry,
} from "@ensemble/protocol";
import { memoryFlight, type SingleFlight } from "../../cluster/flights";
import type { Logger } from "../../logger";
import type { WorkspaceReader } from "../collab/index";
import {
  ExecutionError,
  type ExecutionService,
  RemoteRunnerError,
  RunAbortedError,
} from "../execution/index";
import type { SessionService } from "../sessions/index";
import { CommandRegistry, type Runner } from "./commands";
import { resultEntries } from "./entries";
import { planProject } from "./project";
import type { TerminalRepo } from "./repo";

/** How the terminal reaches everyone in a session (socket.io: the session's room). */
export interface TerminalBroadcast {
  update(sessionId: string, entries: TerminalEntry[]): void;
  result(sessionId: string, entries: TerminalEntry[]): void;
  runState(state: RunStateUpdate): void;
}

/** Thrown when a run is asked for while the session's single-flight run is in progress. */
/** A viewer typed a line that would change something. */
export class ReadOnlyCommandError extends Error {
  constructor() {
    super(ROLE_MESSAGES.readOnly);
  }
}

export class RunInProgressError extends Error {
  constructor() {
    super(EXECUTION_MESSAGES.inProgress);
  }
}

export interface TerminalDeps {
  repo: TerminalRepo;
  execution: Pick<ExecutionService, "runProject">;
  /** The session's language, and the refusal of runs once its host ended it. */
  sessions: Pick<SessionService, "language" | "assertOpen">;
  /** The session's live files, as every participant sees them now. */
  workspace: WorkspaceReader;
  broadcast: TerminalBroadcast;
  logger: Logger;
  /** One run per session across every node of a cluster (this process alone by default). */
  flights?: SingleFlight | undefined;
}

export interface RunInput {
  /** The workspace file the sender has open (see planProject). */
  file?: string | undefined;
  stdin?: string | undefined;
  args?: string[] | undefined;
}

/**
 * The shared terminal of each session. Runs are single-flight per session (across nodes):
 * a second run while one is in flight is refused, and every participant is told when a run
 * starts and ends. Entries are stored first, then broadcast to everyone, the sender included:
 * that broadcast is the only way anyone receives them.
 */
export function createTerminalService(deps: TerminalDeps) {
  const { repo, execution, sessions, workspace, broadcast, logger } = deps;
  const flights = deps.flights ?? memoryFlight();
  const running = new Map<string, string>();
  const commands = new CommandRegistry();

  async function say(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
    const stored = await repo.append(sessionId, entries);
    broadcast.update(sessionId, stored);
    return stored;
  }

  /** The run's result entries, or why it could not run; a cancelled run throws RunAbortedError. */
  async function execute(
    sessionId: string,
    who: Runner,
    input: RunInput,
  ): Promise<{ response: ExecuteResponse | undefined; entries: TerminalEntry[] }> {
    const files = workspace.files(sessionId);
    if (!files) {
      return {
        response: undefined,
        entries: [{ type: "error", content: "Execution failed: the session's files are not loaded" }],
      };
    }
    // The code that runs is the session's live workspace, not text a client sends: what
    // everyone sees is what runs.
    const plan = planProject(files, input.file, await sessions.language(sessionId));
    if (!plan.ok) {
      return {
        response: undefined,
        entries: [{ type: "error", content: `Execution failed: ${plan.message}` }],
      };
    }
    try {
      const response = await execution.runProject(
        { language: plan.language, files: plan.files, stdin: input.stdin, args: input.args },
        { signal: who.signal, rateKey: who.rateKey },
      );
      return { response, entries: resultEntries(response) };
    } catch (error) {
      if (error instanceof RunAbortedError || who.signal?.aborted) throw error;
      return { response: undefined, entries: [{ type: "error", content: failureText(error, logger) }] };
    }
  }

  async function runCode(
    sessionId: string,
    who: Runner,
    input: RunInput & { echo: string },
  ): Promise<{ response: ExecuteResponse | undefined; entries: TerminalEntry[] }> {
    await sessions.assertOpen(sessionId);
    if (running.has(sessionId)) throw new RunInProgressError();
    // Claimed before the first await, so two runs racing in one tick cannot both start.
    running.set(sessionId, who.name);
    // Across nodes too: a stale route or a handover can put the session on two of them.
    const release = await flights.tryHold(`run:${sessionId}`).catch((error: unknown) => {
      running.delete(sessionId);
      throw error;
    });
    if (!release) {
      running.delete(sessionId);
      throw new RunInProgressError();
    }
    broadcast.runState({ sessionId, isRunning: true, by: who.name });
    try {
      await say(sessionId, [{ type: "input", content: input.echo }]);
      const { response, entries } = await execute(sessionId, who, input);
      const stored = await repo.append(sessionId, entries);
      broadcast.result(sessionId, stored);
      return { response, entries: stored };
    } finally {
      running.delete(sessionId);
      await release();
      broadcast.runState({ sessionId, isRunning: false, by: null });
    }
  }

  commands.register({
    name: "run",
    summary: "run the open .js, .mjs or .py file (else the language's main file) for everyone",
    execute: async ({ sessionId, who, line, file }) => {
      await runCode(sessionId, who, { file, echo: `$ ${line}` });
    },
  });
  commands.register({
    name: "clear",
    summary: "clear the terminal for everyone in the session",
    execute: async ({ sessionId }) => {
      await sessions.assertOpen(sessionId);
      await repo.clear(sessionId);
      broadcast.update(sessionId, [{ type: "clear", content: "" }]);
    },
  });
  commands.register({
    name: "help",
    summary: "show this help",
    readsOnly: () => true,
    execute: ({ reply }) => reply([{ type: "output", content: commands.helpText() }]),
  });

  return {
    /** Where features add their terminal commands (see CommandRegistry). */
    commands,

    /** Lines from the server itself (a review's outcome): stored, then shown to everyone. */
    announce: (sessionId: string, entries: TerminalEntry[]) => say(sessionId, entries),

    /** Run Code: the project's run for everyone. Throws RunInProgressError or RunAbortedError. */
    runCode: (sessionId: string, who: Runner, input: RunInput) =>
      runCode(sessionId, who, { ...input, echo: "$ run" }),

    /** A typed line, answered for everyone by the command it names. */
    async command(
      sessionId: string,
      who: Runner,
      typed: string,
      file?: string,
      github?: GithubTarget,
    ): Promise<void> {
      const line = typed.trim();
      const [name, ...args] = line.split(/\s+/).filter(Boolean);
      if (!name) return;
      const reply = async (entries: TerminalEntry[]) => {
        await say(sessionId, [{ type: "input", content: `$ ${line}` }, ...entries]);
      };
      const command = commands.find(name);
      if (!command) return reply(commands.unknown(name));
      if (!who.canEdit && !command.readsOnly?.(args)) throw new ReadOnlyCommandError();
      await command.execute({ sessionId, who, line, args, file, github, reply });
    },

    history: (sessionId: string) => repo.history(sessionId),

    runState(sessionId: string): RunStateUpdate {
      const by = running.get(sessionId);
      return { sessionId, isRunning: by !== undefined, by: by ?? null };
    },
  };
}

export type TerminalService = ReturnType<typeof createTerminalService>;

/**
 * The spec's execution messages (§8): a refusal says why, a Piston server's error status is
 * shown as it is, and anything unexpected is logged.
 */
function failureText(error: unknown, logger: Logger): string {
  if (error instanceof RemoteRunnerError && error.status !== undefined) return error.message;
  if (error instanceof ExecutionError) return `Execution failed: ${error.message}`;
  logger.error({ err: error }, "terminal run failed");
  return `Error executing code: ${error instanceof Error ? error.message : String(error)}`;
}
