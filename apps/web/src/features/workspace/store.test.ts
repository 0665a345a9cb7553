import { beforeEach, describe, expect, it } from "vitest";
import { useCollabStore } from "../collab/store";
import { clearReveal, openFileAt, resetOpenFiles, useOpenFiles } from "./store";

describe("openFileAt", () => {
  beforeEach(() => {
    resetOpenFiles();
    useCollabStore.setState({
      files: [
        { id: "a", path: "src/main.py" },
        { id: "b", path: "src/util.py" },
      ],
    });
  });

  it("opens the file at that path and asks the editor for the place", () => {
    expect(openFileAt("src/util.py", 3, 5)).toBe(true);
    expect(useOpenFiles.getState()).toMatchObject({
      openIds: ["b"],
      activeId: "b",
      reveal: { id: "b", line: 3, column: 5 },
    });
    clearReveal();
    expect(useOpenFiles.getState().reveal).toBeNull();
  });

  it("starts at the line's first column when none is given", () => {
    openFileAt("src/main.py", 7);
    expect(useOpenFiles.getState().reveal).toEqual({ id: "a", line: 7, column: 1 });
  });

  it("says so when no file has that path", () => {
    expect(openFileAt("src/missing.py", 1)).toBe(false);
    expect(useOpenFiles.getState()).toMatchObject({ openIds: [], activeId: null, reveal: null });
  });
});
