import type { Ack, TerminalEntry } from "@ensemble/protocol";
import type { EditorSocket } from "../../lib/socket";
import { readStoredTarget } from "../git/credentials";
import {
  askedForHistory,
  receiveEntries,
  replaceHistory,
  resetTerminal,
  setRunState,
  setStarting,
  setStopping,
  setTerminalOpen,
} from "./store";

/** A run may wait in the server's queue, then take up to its 10 s timeout. */
const RUN_ACK_TIMEOUT_MS = 60_000;
const COMMAND_ACK_TIMEOUT_MS = 60_000;
const CONTROL_ACK_TIMEOUT_MS = 10_000;

/** Typed lines that reach GitHub, so they travel with this browser's stored GitHub connection. */
const GITHUB_LINE = /^\s*git\s+(push|pull|auth)(\s|$)/;

/**
 * Refusals the server has already shown everyone as a terminal entry (the run started and
 * failed); any other refusal happened before the run and is shown to us alone.
 */
const BROADCAST_FAILURES = new Set(["execution_failed", "cancelled"]);

/**
 * What to show us alone for a run or command the server refused (spec §8 wording for
 * runs), or null when it succeeded or everyone was already shown why it failed.
 */
export function failureEntry(
  err: Error | null,
  result: Ack<unknown> | undefined,
  isRun: boolean,
): TerminalEntry | null {
  if (err || !result) {
    const reason = err ? "the server did not answer" : "unexpected answer from the server";
    return {
      type: "error",
      content: isRun ? `Error executing code: ${reason}.` : `Command failed: ${reason}.`,
    };
  }
  if (result.ok || BROADCAST_FAILURES.has(result.error.code)) return null;
  return {
    type: "error",
    content: isRun ? `Execution failed: ${result.error.message}` : result.error.message,
  };
}

/** Shows us alone why the server refused a line, Ctrl+D, Stop or an access change. */
function showRefusal(err: Error | null, result: Ack<null> | undefined): void {
  const failure = failureEntry(err, result, false);
  if (failure) receiveEntries([failure]);
}

/**
 * The session's shared terminal over the editor's one socket. The server sends every entry
 * once, to the whole session room, the sender included (a run's result as
 * `executionResult`); acks carry no entries and are read just for refusals that nobody else
 * sees.
 */
export class TerminalChannel {
  constructor(
    private readonly socket: EditorSocket,
    private readonly sessionId: string,
  ) {
    resetTerminal();
    socket.on("terminalHistory", ({ sessionId, history }) => {
      if (sessionId === this.sessionId) replaceHistory(history);
    });
    socket.on("terminalUpdate", ({ sessionId, entry, entries }) => {
      if (sessionId !== this.sessionId) return;
      receiveEntries(entries ?? (entry ? [entry] : []));
    });
    socket.on("executionResult", ({ sessionId, terminalEntries }) => {
      if (sessionId === this.sessionId) receiveEntries(terminalEntries);
    });
    socket.on("runStateUpdate", ({ sessionId, ...state }) => {
      if (sessionId === this.sessionId) setRunState(state);
    });
    socket.on("disconnect", () => {
      // A run we started is cancelled with our socket; the next join tells the real state.
      setRunState({ isRunning: false, by: null });
      setStarting(false);
    });
  }

  /** Called on each successful join: the history replaces whatever we showed. */
  joined(): void {
    askedForHistory();
    this.socket.emit("getTerminalHistory", this.sessionId);
  }

  /**
   * Runs the session's project for everyone (Run Code), from `openFile` (the workspace path
   * of the file the editor shows) when it is `.js`, `.mjs` or `.py`, else from the session
   * language's main file.
   */
  run(openFile?: string): void {
    setStarting(true);
    setTerminalOpen(true);
    const payload = { sessionId: this.sessionId, ...(openFile !== undefined ? { file: openFile } : {}) };
    this.socket.timeout(RUN_ACK_TIMEOUT_MS).emit("runCode", payload, (err, result) => {
      setStarting(false);
      const failure = failureEntry(err, result, true);
      if (failure) receiveEntries([failure]);
    });
  }

  /** A line for the running program's stdin; everyone sees it as input, refusals only us. */
  input(line: string): void {
    this.socket
      .timeout(CONTROL_ACK_TIMEOUT_MS)
      .emit("runInput", { sessionId: this.sessionId, line }, showRefusal);
  }

  /** Ctrl+D: the program reads end of file. */
  closeInput(): void {
    this.socket
      .timeout(CONTROL_ACK_TIMEOUT_MS)
      .emit("closeRunInput", { sessionId: this.sessionId }, showRefusal);
  }

  /** Stop (or Ctrl+C): the server interrupts the run for everyone. */
  stop(): void {
    setStopping();
    this.socket.timeout(CONTROL_ACK_TIMEOUT_MS).emit("stopRun", { sessionId: this.sessionId }, showRefusal);
  }

  /** The starter lets every editor type into the run, or only themselves. */
  setInputAccess(othersMayType: boolean): void {
    this.socket
      .timeout(CONTROL_ACK_TIMEOUT_MS)
      .emit("setRunInputAccess", { sessionId: this.sessionId, othersMayType }, showRefusal);
  }

  /**
   * Sends a line typed in the terminal; the server echoes and answers it for everyone.
   * `openFile` is what a typed `run` starts from (see run); `git push|pull|auth` carry the
   * stored GitHub connection (the host's own browser storage), for that line only.
   */
  command(line: string, openFile?: string): void {
    const github = GITHUB_LINE.test(line) ? readStoredTarget() : null;
    const payload = {
      sessionId: this.sessionId,
      command: line,
      ...(openFile !== undefined ? { file: openFile } : {}),
      ...(github ? { github } : {}),
    };
    this.socket.timeout(COMMAND_ACK_TIMEOUT_MS).emit("terminalCommand", payload, (err, result) => {
      const failure = failureEntry(err, result, false);
      // Refused before the server echoed it: show the line with the reason, to us only.
      if (failure) receiveEntries([{ type: "input", content: `$ ${line.trim()}` }, failure]);
    });
  }
}
