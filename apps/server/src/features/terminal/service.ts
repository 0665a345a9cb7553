import { randomUUID } from "node:crypto";
import {
  EXECUTION_LIMITS,
  EXECUTION_MESSAGES,
  type ExecuteResponse,
  type GithubTarget,
  ROLE_MESSAGES,
  type RunDiagnostics,
  type RunStateUpdate,
  type TerminalEntry,
} from "@ensemble/protocol";
import { memoryFlight, type SingleFlight } from "../../cluster/flights";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import type { WorkspaceReader } from "../collab/index";
import { type ExecutionService, isRunCancelled, LiveIo } from "../execution/index";
import type { SessionService } from "../sessions/index";
import { CommandRegistry, type Runner } from "./commands";
import { LastDiagnostics, runDiagnostics } from "./diagnostics";
import { resultEntries } from "./entries";
import { type LiveRun, LiveRuns } from "./liveRuns";
import { OutputBatcher } from "./outputBatcher";
import { planProject } from "./project";
import type { TerminalRepo } from "./repo";

/** How the terminal reaches everyone in a session (socket.io: the session's room). */
export interface TerminalBroadcast {
  update(sessionId: string, entries: TerminalEntry[]): void;
  result(sessionId: string, entries: TerminalEntry[]): void;
  runState(state: RunStateUpdate): void;
  /** What the last run reported on the session's files (none when a run starts). */
  diagnostics(state: RunDiagnostics): void;
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
  /** Wall clock of a run (RUN_LIVE_TIMEOUT_MS): a live run may wait for someone to type. */
  liveTimeoutMs: number;
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
 * starts and ends. A run is live: its output reaches everyone as it is written (batched, see
 * OutputBatcher), lines typed go to its stdin, and Stop interrupts it (see LiveRuns). Entries
 * are stored first, then broadcast to everyone, the sender included: that broadcast is the
 * only way anyone receives them, so a reload's history holds everything printed so far.
 */
export function createTerminalService(deps: TerminalDeps) {
  const { repo, execution, sessions, workspace, broadcast, logger } = deps;
  const flights = deps.flights ?? memoryFlight();
  const runs = new LiveRuns();
  const commands = new CommandRegistry();
  const diagnostics = new LastDiagnostics((sessionId) => workspace.isLoaded(sessionId));

  /** The run's marks; a parser's failure costs the marks, never the run's result. */
  function marksOf(response: ExecuteResponse, files: { path: string }[], entry: string) {
    try {
      return runDiagnostics(response, files, entry);
    } catch (error) {
      logger.error({ err: error }, "terminal: could not read a run's diagnostics");
      return [];
    }
  }

  async function say(sessionId: string, entries: TerminalEntry[]): Promise<TerminalEntry[]> {
    const stored = await repo.append(sessionId, entries);
    broadcast.update(sessionId, stored);
    return stored;
  }

  /** The run's result entries, or why it could not run; a cancelled run throws runCancelled. */
  async function execute(
    sessionId: string,
    who: Runner,
    input: RunInput,
    io: LiveIo,
  ): Promise<{
    response: ExecuteResponse | undefined;
    entries: TerminalEntry[];
    marks: RunDiagnostics["diagnostics"];
  }> {
    const files = workspace.files(sessionId);
    if (!files) {
      return {
        response: undefined,
        entries: [{ type: "error", content: "Execution failed: the session's files are not loaded" }],
        marks: [],
      };
    }
    // The code that runs is the session's live workspace, not text a client sends: what
    // everyone sees is what runs.
    const plan = planProject(files, input.file, await sessions.language(sessionId));
    if (!plan.ok) {
      return {
        response: undefined,
        entries: [{ type: "error", content: `Execution failed: ${plan.message}` }],
        marks: [],
      };
    }
    try {
      // The run is the session's, not its starter's socket's: a reload keeps it (and the
      // starter, back under the same participant id, still types into it); Stop, its time
      // limit or the server's shutdown end it.
      const response = await execution.runProject(
        { language: plan.language, files: plan.files, args: input.args },
        // The terminal renders colours: programs and compilers may print them.
        { rateKey: who.rateKey, io, timeoutMs: deps.liveTimeoutMs, cacheScope: sessionId, colour: true },
      );
      return { response, entries: [], marks: marksOf(response, plan.files, plan.entry) };
    } catch (error) {
      if (isRunCancelled(error)) throw error;
      return {
        response: undefined,
        entries: [{ type: "error", content: failureText(error, logger) }],
        marks: [],
      };
    }
  }

  async function runCode(
    sessionId: string,
    who: Runner,
    input: RunInput & { echo: string },
  ): Promise<{ response: ExecuteResponse | undefined; entries: TerminalEntry[] }> {
    await sessions.assertOpen(sessionId);
    const output = new OutputBatcher(async (entries) => {
      // The run goes on: a batch that could not be stored is missing from everyone's terminal.
      await say(sessionId, entries).catch((error: unknown) =>
        logger.error({ err: error, sessionId }, "terminal: could not store a run's output"),
      );
    }, EXECUTION_LIMITS.outputBatchMs);
    const io = new LiveIo((stream, text) => output.push(stream, text));
    const run: LiveRun = {
      starterId: who.id,
      starterName: who.name,
      io,
      othersMayType: false,
      inputBytes: 0,
    };
    // Claimed before the first await, so two runs racing in one tick cannot both start.
    if (!runs.claim(sessionId, run)) throw new DomainError("run_in_progress", EXECUTION_MESSAGES.inProgress);
    // Across nodes too: a stale route or a handover can put the session on two of them.
    const release = await flights.tryHold(`run:${sessionId}`).catch((error: unknown) => {
      runs.release(sessionId);
      throw error;
    });
    if (!release) {
      runs.release(sessionId);
      throw new DomainError("run_in_progress", EXECUTION_MESSAGES.inProgress);
    }
    // Stdin given with the request (Piston's way) is the whole input: written, then closed.
    if (input.stdin !== undefined) {
      io.write(input.stdin.endsWith("\n") ? input.stdin : `${input.stdin}\n`);
      io.closeStdin();
    }
    broadcast.runState(runs.state(sessionId));
    // The previous run's marks go as this one starts, for everyone.
    broadcast.diagnostics(diagnostics.set(sessionId, undefined, []));
    try {
      await say(sessionId, [{ type: "input", content: input.echo }]);
      const { response, entries, marks } = await execute(sessionId, who, input, io).finally(() =>
        io.finish(),
      );
      await output.drain();
      const result = response
        ? resultEntries(response, { printed: output.printed, stoppedBy: run.stoppedBy })
        : entries;
      const stored = await repo.append(sessionId, result);
      broadcast.result(sessionId, stored);
      // A stopped program's trace (Python's KeyboardInterrupt) says where it was, not what is wrong.
      if (marks.length > 0 && run.stoppedBy === undefined) {
        broadcast.diagnostics(diagnostics.set(sessionId, randomUUID(), marks));
      }
      return { response, entries: stored };
    } finally {
      runs.release(sessionId);
      await release();
      broadcast.runState(runs.state(sessionId));
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

    /** Run Code: the project's run for everyone. Throws run_in_progress or cancelled. */
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
      if (!who.canEdit && !command.readsOnly?.(args))
        throw new DomainError("read_only", ROLE_MESSAGES.readOnly);
      await command.execute({ sessionId, who, line, args, file, github, reply });
    },

    history: (sessionId: string) => repo.history(sessionId),

    /** The stored entries with their times (a `clear` deletes what came before it, so these are since then). */
    timed: (sessionId: string) => repo.timed(sessionId),

    runState: (sessionId: string): RunStateUpdate => runs.state(sessionId),

    /** What the session's last run reported on its files, for a late joiner. */
    diagnostics: (sessionId: string): RunDiagnostics => diagnostics.of(sessionId),

    /** A line typed into the running program: shown to everyone as input, then written to its stdin. */
    async input(sessionId: string, who: Runner, line: string): Promise<void> {
      const run = runs.typist(sessionId, who);
      runs.takeInput(run, `${line}\n`);
      await say(sessionId, [{ type: "input", content: line }]);
      run.io.write(`${line}\n`);
    },

    /** Ctrl+D: the program reads end of file. */
    async closeInput(sessionId: string, who: Runner): Promise<void> {
      const run = runs.typist(sessionId, who);
      run.io.closeStdin();
      broadcast.runState(runs.state(sessionId));
      await say(sessionId, [{ type: "input", content: "^D" }]);
    },

    /** Stop or Ctrl+C: SIGINT, then the tree killed after the grace; the result names who. */
    stop(sessionId: string, who: Runner): void {
      runs.stop(sessionId, who);
    },

    /** Stops the session's live run, if one runs (its session is being deleted by its host). */
    stopIfRunning(sessionId: string, host: { id: string; name: string }): void {
      if (!runs.state(sessionId).isRunning) return;
      const who = {
        id: host.id,
        name: host.name,
        userId: host.id,
        role: "host",
        isHost: true,
        canEdit: true,
        rateKey: `user:${host.id}`,
      } as const;
      runs.stop(sessionId, who);
    },

    /** The starter lets every editor type into the run, or only themselves. */
    setInputAccess(sessionId: string, who: Runner, othersMayType: boolean): void {
      runs.setAccess(sessionId, who, othersMayType);
      broadcast.runState(runs.state(sessionId));
    },
  };
}

export type TerminalService = ReturnType<typeof createTerminalService>;

/**
 * The spec's execution messages (§8): a refusal says why, a Piston server's error status is
 * shown as it is, and anything unexpected is logged.
 */
function failureText(error: unknown, logger: Logger): string {
  if (error instanceof DomainError && error.details.upstreamStatus !== undefined) return error.message;
  if (error instanceof DomainError) return `Execution failed: ${error.message}`;
  logger.error({ err: error }, "terminal run failed");
  return `Error executing code: ${error instanceof Error ? error.message : String(error)}`;
}
