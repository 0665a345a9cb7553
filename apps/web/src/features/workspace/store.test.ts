import { beforeEach, describe, expect, it } from "vitest";
import { openFileAt, resetOpenFiles, revealed, useOpenFiles } from "./store";

describe("openFileAt", () => {
  beforeEach(() => resetOpenFiles());

  it("opens the file and asks the editor for the place, until it is shown", () => {
    openFileAt("b", 3, 5);
    const { openIds, activeId, reveal } = useOpenFiles.getState();
    expect({ openIds, activeId, reveal }).toEqual({
      openIds: ["b"],
      activeId: "b",
      reveal: { id: "b", line: 3, column: 5 },
    });
    if (reveal) revealed(reveal);
    expect(useOpenFiles.getState().reveal).toBeNull();
  });

  it("keeps a newer request when an older one is reported shown", () => {
    openFileAt("a", 7);
    const first = useOpenFiles.getState().reveal;
    openFileAt("b", 2);
    if (first) revealed(first);
    expect(useOpenFiles.getState().reveal).toEqual({ id: "b", line: 2 });
  });
});
