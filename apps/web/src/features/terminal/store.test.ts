import { beforeEach, describe, expect, it } from "vitest";
import {
  askedForHistory,
  LIVE_BURST_CHARS,
  receiveEntries,
  replaceHistory,
  resetTerminal,
  setRunState,
  typesIntoRun,
  useTerminalStore,
} from "./store";

const running = { isRunning: true, by: "Ann", byId: "ann", inputOpen: true, othersMayType: false };

describe("the terminal store during a live run", () => {
  beforeEach(() => resetTerminal());

  it("sends our lines to the program when we started the run, or the starter allowed everyone, while its input is open", () => {
    setRunState(running);
    expect(typesIntoRun(useTerminalStore.getState(), "ann")).toBe(true);
    expect(typesIntoRun(useTerminalStore.getState(), "ben")).toBe(false);
    expect(typesIntoRun(useTerminalStore.getState(), null)).toBe(false);
    setRunState({ ...running, othersMayType: true });
    expect(typesIntoRun(useTerminalStore.getState(), "ben")).toBe(true);
    setRunState({ ...running, othersMayType: true, inputOpen: false });
    expect(typesIntoRun(useTerminalStore.getState(), "ann")).toBe(false);
    // The run ended: nothing of it is kept.
    setRunState({ isRunning: false, by: null });
    expect(useTerminalStore.getState()).toMatchObject({
      runById: null,
      inputOpen: false,
      othersMayType: false,
    });
  });

  it("types out a short burst of a live run, and shows a longer one at once so output never falls behind", () => {
    setRunState(running);
    receiveEntries([{ type: "output", content: "x".repeat(LIVE_BURST_CHARS), seq: 1 }]);
    expect(useTerminalStore.getState().typing).not.toBeNull();
    receiveEntries([{ type: "output", content: `${"y".repeat(LIVE_BURST_CHARS)}\n`, seq: 2 }]);
    expect(useTerminalStore.getState().typing).toBeNull();
    // Outside a run, a long answer (help) is typed out within the usual budget.
    setRunState({ isRunning: false, by: null });
    receiveEntries([{ type: "output", content: "z\n".repeat(100), seq: 3 }]);
    expect(useTerminalStore.getState().typing).not.toBeNull();
  });
});

describe("entries that overtake each other", () => {
  beforeEach(() => resetTerminal());

  it("notices a number skipped, and the history then shows every entry in the server's order", () => {
    const entry = (seq: number) => ({ type: "output" as const, content: `line ${seq}\n`, seq });
    expect(receiveEntries([entry(1)]).isMissingSome).toBe(false);
    expect(receiveEntries([entry(2)]).isMissingSome).toBe(false);
    // Entry 3 was stored first but its broadcast is late: 4 arrives, then 3 (skipped as seen).
    expect(receiveEntries([entry(4)]).isMissingSome).toBe(true);
    askedForHistory();
    receiveEntries([entry(3)]);
    receiveEntries([entry(5)]);
    replaceHistory([entry(1), entry(2), entry(3), entry(4)]);
    expect(useTerminalStore.getState().entries.map((e) => e.content)).toEqual([
      "line 1\n",
      "line 2\n",
      "line 3\n",
      "line 4\n",
      "line 5\n",
    ]);
  });
});
