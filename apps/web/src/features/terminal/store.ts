import type { RunStateUpdate, TerminalEntry } from "@ensemble/protocol";
import { create } from "zustand";
import { isCompactWindow } from "../../ui/compact";
import { applyEntries, mergeHistory, type ShownEntry } from "./entries";
import { clampHeight, TERMINAL_HEIGHT } from "./height";

/** A batch of entries being typed out: every entry from `fromId` on, from `startedAt`. */
export interface TypingBatch {
  fromId: number;
  startedAt: number;
}

interface TerminalState {
  entries: ShownEntry[];
  nextId: number;
  /** The newest server `seq` shown: a broadcast that raced with the history is not shown twice. */
  lastSeq: number;
  /** `nextId` when the history was last asked for (see mergeHistory). */
  historyAskedAt: number;
  typing: TypingBatch | null;
  /** The session's single-flight run is in progress (told by the server, for everyone). */
  isRunning: boolean;
  runBy: string | null;
  /** The participant id of who started the run in flight: they type into it by default. */
  runById: string | null;
  /** The running program's stdin is open. */
  inputOpen: boolean;
  /** The starter lets every editor type into the run. */
  othersMayType: boolean;
  /** We pressed Stop (or Ctrl+C) and the run has not ended yet. */
  isStopping: boolean;
  /** We asked to run and the server has not answered yet. */
  isStarting: boolean;
  isOpen: boolean;
  height: number;
}

const initial: TerminalState = {
  entries: [],
  nextId: 1,
  lastSeq: 0,
  historyAskedAt: 1,
  typing: null,
  isRunning: false,
  runBy: null,
  runById: null,
  inputOpen: false,
  othersMayType: false,
  isStopping: false,
  isStarting: false,
  // On a tablet or phone the editor keeps the screen until a run (or the toggle) opens it.
  isOpen: !isCompactWindow(),
  height: TERMINAL_HEIGHT.default,
};

/** The shared terminal of the open session, and the panel's own open state and height. */
export const useTerminalStore = create<TerminalState>()(() => initial);

/** Empties the terminal for a new session; the panel keeps its place and size. */
export function resetTerminal(): void {
  useTerminalStore.setState(({ isOpen, height }) => ({ ...initial, isOpen, height }));
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * While a run is live, a batch of output longer than this shows at once: typing it out at
 * 25 ms a character would fall behind a program that prints faster than that.
 */
export const LIVE_BURST_CHARS = 40;

/**
 * Adds entries that just happened. Output and errors are typed out unless the user prefers
 * reduced motion or, while a run is live, the batch is more than a short burst; a new batch
 * shows whatever an earlier one had left to type at once, so output never falls behind.
 */
export function receiveEntries(incoming: readonly TerminalEntry[]): { isMissingSome: boolean } {
  const animate = !prefersReducedMotion();
  // The server numbers a session's entries one by one as it stores them: a number skipped
  // is an entry still on its way (another node's broadcast overtaken), which the history has.
  const first = incoming.find((e) => e.seq !== undefined)?.seq;
  const { lastSeq: before } = useTerminalStore.getState();
  const isMissingSome = first !== undefined && before > 0 && first > before + 1;
  useTerminalStore.setState((s) => {
    if (incoming.every((e) => e.seq !== undefined && e.seq <= s.lastSeq)) return {};
    const { entries, nextId, lastSeq } = applyEntries(s.entries, incoming, s.nextId, s.lastSeq);
    const burst = incoming.reduce((sum, e) => sum + (e.type === "input" ? 0 : e.content.length), 0);
    const isShort = !s.isRunning || burst <= LIVE_BURST_CHARS;
    const typed = isShort && entries.some((e) => e.id >= s.nextId && e.type !== "input");
    const typing = animate && typed ? { fromId: s.nextId, startedAt: performance.now() } : null;
    return { entries, nextId, lastSeq, typing };
  });
  return { isMissingSome };
}

/** The history is being asked for: entries from now on may be newer than it. */
export function askedForHistory(): void {
  useTerminalStore.setState((s) => ({ historyAskedAt: s.nextId }));
}

/** Replaces the terminal with the session's history (shown at once, never typed). */
export function replaceHistory(history: readonly TerminalEntry[]): void {
  useTerminalStore.setState((s) => ({
    ...mergeHistory(s.entries, history, s.nextId, s.historyAskedAt),
    typing: null,
  }));
}

/** The typing of `batch` has finished. */
export function finishTyping(batch: TypingBatch): void {
  useTerminalStore.setState((s) => (s.typing === batch ? { typing: null } : {}));
}

/** The session's run state, as the server told everyone. */
export function setRunState(state: Omit<RunStateUpdate, "sessionId">): void {
  const { isRunning } = state;
  useTerminalStore.setState({
    isRunning,
    runBy: isRunning ? state.by : null,
    runById: isRunning ? (state.byId ?? null) : null,
    inputOpen: isRunning && (state.inputOpen ?? false),
    othersMayType: isRunning && (state.othersMayType ?? false),
    ...(isRunning ? {} : { isStopping: false }),
  });
}

/** We asked the server to stop the run in flight. */
export function setStopping(): void {
  useTerminalStore.setState((s) => (s.isRunning ? { isStopping: true } : {}));
}

/** Whether lines typed by participant `selfId` go to the running program rather than to the commands. */
export function typesIntoRun(
  s: Pick<TerminalState, "isRunning" | "inputOpen" | "runById" | "othersMayType">,
  selfId: string | null,
): boolean {
  return s.isRunning && s.inputOpen && selfId !== null && (s.runById === selfId || s.othersMayType);
}

export function setStarting(isStarting: boolean): void {
  useTerminalStore.setState({ isStarting });
}

export function setTerminalOpen(isOpen: boolean): void {
  useTerminalStore.setState({ isOpen });
}

export function setTerminalHeight(height: number): void {
  useTerminalStore.setState({ height: clampHeight(height) });
}
