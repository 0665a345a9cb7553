import type { Ack, TerminalEntry } from "@ensemble/protocol";
import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
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

/** Typed lines that reach GitHub, so they travel with this browser's stored GitHub connection. */
const GITHUB_LINE = /^\s*git\s+(push|pull|auth)(\s|$)/;

/**
 * Refusals the server has already shown everyone as a terminal entry (the run started and
 * failed); any other refusal happened before the run and is shown to us alone.
 */
const BROADCAST_FAILURES = new Set(["execution_failed", "cancelled"]);

/** Why a run or command got no answer, by the request's local code. */
const LOCAL_REASONS: Record<string, string> = {
  offline: "you are offline",
  timeout: "the server did not answer",
  invalid_answer: "unexpected answer from the server",
};

/**
 * What to show us alone for a run or command the server refused (spec §8 wording for
 * runs), or null when it succeeded or everyone was already shown why it failed.
 */
export function failureEntry(result: Ack<unknown>, isRun: boolean): TerminalEntry | null {
  if (result.ok) return null;
  const reason = LOCAL_REASONS[result.error.code];
  if (reason !== undefined)
    return {
      type: "error",
      content: isRun ? `Error executing code: ${reason}.` : `Command failed: ${reason}.`,
    };
  if (BROADCAST_FAILURES.has(result.error.code)) return null;
  return {
    type: "error",
    content: isRun ? `Execution failed: ${result.error.message}` : result.error.message,
  };
}

/** Shows us alone why the server refused a line, Ctrl+D, Stop or an access change. */
function showRefusal(result: Ack<null>): void {
  const failure = failureEntry(result, false);
  if (failure) receiveEntries([failure]);
}

/**
 * The session's shared terminal over the editor's one socket. The server sends every entry
 * once, to the whole session room, the sender included (a run's result as
 * `executionResult`); acks carry no entries and are read just for refusals that nobody else
 * sees.
 */
export class TerminalChannel {
  private readonly link: SessionLink;

  /** Asks for the session's history; it replaces what is shown, keeping what came meanwhile. */
  private readHistory(): void {
    askedForHistory();
    this.link.send("getTerminalHistory", this.link.sessionId);
  }

  constructor({ link, lifecycle }: ChannelScope) {
    this.link = link;
    resetTerminal();
    link.listen("terminalHistory", ({ history }) => replaceHistory(history));
    const receive = (entries: readonly TerminalEntry[]) => {
      if (receiveEntries(entries).isMissingSome) this.readHistory();
    };
    link.listen("terminalUpdate", ({ entry, entries }) => receive(entries ?? (entry ? [entry] : [])));
    link.listen("executionResult", ({ terminalEntries }) => receive(terminalEntries));
    link.listen("runStateUpdate", ({ sessionId: _, ...state }) => setRunState(state));
    // The history replaces whatever we showed.
    lifecycle.on("joined", () => this.readHistory());
    lifecycle.on("left", () => {
      // A run we started is cancelled with our socket; the next join tells the real state.
      setRunState({ isRunning: false, by: null });
      setStarting(false);
    });
  }

  /**
   * Runs the session's project for everyone (Run Code), from `openFile` (the workspace path
   * of the file the editor shows) when it is `.js`, `.mjs` or `.py`, else from the session
   * language's main file.
   */
  run(openFile?: string): void {
    setStarting(true);
    setTerminalOpen(true);
    const payload = { sessionId: this.link.sessionId, ...(openFile !== undefined ? { file: openFile } : {}) };
    void this.link.request("runCode", payload).then((result) => {
      setStarting(false);
      const failure = failureEntry(result, true);
      if (failure) receiveEntries([failure]);
    });
  }

  /** A line for the running program's stdin; everyone sees it as input, refusals only us. */
  input(line: string): void {
    void this.link.request("runInput", { sessionId: this.link.sessionId, line }).then(showRefusal);
  }

  /** Ctrl+D: the program reads end of file. */
  closeInput(): void {
    void this.link.request("closeRunInput", { sessionId: this.link.sessionId }).then(showRefusal);
  }

  /** Stop (or Ctrl+C): the server interrupts the run for everyone. */
  stop(): void {
    setStopping();
    void this.link.request("stopRun", { sessionId: this.link.sessionId }).then(showRefusal);
  }

  /** The starter lets every editor type into the run, or only themselves. */
  setInputAccess(othersMayType: boolean): void {
    void this.link
      .request("setRunInputAccess", { sessionId: this.link.sessionId, othersMayType })
      .then(showRefusal);
  }

  /**
   * Sends a line typed in the terminal; the server echoes and answers it for everyone.
   * `openFile` is what a typed `run` starts from (see run); `git push|pull|auth` carry the
   * stored GitHub connection (the host's own browser storage), for that line only.
   */
  command(line: string, openFile?: string): void {
    const github = GITHUB_LINE.test(line) ? readStoredTarget() : null;
    const payload = {
      sessionId: this.link.sessionId,
      command: line,
      ...(openFile !== undefined ? { file: openFile } : {}),
      ...(github ? { github } : {}),
    };
    void this.link.request("terminalCommand", payload).then((result) => {
      const failure = failureEntry(result, false);
      // Refused before the server echoed it: show the line with the reason, to us only.
      if (failure) receiveEntries([{ type: "input", content: `$ ${line.trim()}` }, failure]);
    });
  }
}

/** The session's shared terminal and Run Code. */
export const terminalChannel = defineChannel("terminal", (scope) => new TerminalChannel(scope));
