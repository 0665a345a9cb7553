import { beforeEach, describe, expect, it } from "vitest";
import {
  LIVE_BURST_CHARS,
  receiveEntries,
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
