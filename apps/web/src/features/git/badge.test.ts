import type { GitStatus } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { badgeFor, statusLabel } from "./badge";
import { readBranches } from "./store";

const status: GitStatus = {
  branch: "main",
  entries: [
    { path: "src/main.js", status: "modified", staged: false },
    { path: "src/new.js", status: "added", staged: true },
    { path: "src/gone.js", status: "deleted", staged: false },
    { path: "src/moved.js", status: "renamed", staged: true },
  ],
};

describe("badgeFor", () => {
  it("names the open file's status in the spec's words", () => {
    expect(badgeFor(status, "src/main.js")?.word).toBe("Modified");
    expect(badgeFor(status, "src/new.js")?.word).toBe("Added");
    expect(badgeFor(status, "src/gone.js")?.word).toBe("Deleted");
    expect(badgeFor(status, "src/moved.js")?.word).toBe("Renamed");
  });

  it("shows nothing for an unchanged file, no file, or no status yet", () => {
    expect(badgeFor(status, "src/other.js")).toBeNull();
    expect(badgeFor(status, "src")).toBeNull();
    expect(badgeFor(status, null)).toBeNull();
    expect(badgeFor(null, "src/main.js")).toBeNull();
  });
});

describe("statusLabel", () => {
  it("gives each status its letter", () => {
    const all = ["modified", "added", "deleted", "renamed"] as const;
    expect(all.map((s) => statusLabel(s).letter)).toEqual(["M", "A", "D", "R"]);
  });
});

describe("readBranches", () => {
  it("strips the markers and finds the current branch", () => {
    expect(readBranches(["  feature", "* main", "  fix/x"])).toEqual({
      names: ["feature", "main", "fix/x"],
      current: "main",
    });
    expect(readBranches([])).toEqual({ names: [], current: null });
  });
});
