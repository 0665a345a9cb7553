import type { WorkspaceListing } from "@ensemble/collab";
import { WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { alternativePath, applyPending, type PendingOp, pendingProblem, remapPending } from "./pendingFiles";

const listing: WorkspaceListing = {
  files: [
    { id: "f-util000000000000", path: "src/lib/util.js" },
    { id: "f-main000000000000", path: "src/main.js" },
  ],
  folders: ["src", "src/components", "src/lib"],
};
const newFile: PendingOp = { op: "create", kind: "file", id: "f-new0000000000000", path: "src/new.js" };

describe("applyPending", () => {
  it("shows creates, renames and deletes in order, folders with them", () => {
    const ops: PendingOp[] = [
      newFile,
      { op: "rename", from: "src/lib", to: "lib" },
      { op: "delete", path: "src/main.js" },
      { op: "create", kind: "folder", path: "docs/api" },
    ];
    expect(applyPending(listing, ops)).toEqual({
      files: [
        { id: "f-util000000000000", path: "lib/util.js" },
        { id: "f-new0000000000000", path: "src/new.js" },
      ],
      folders: ["docs", "docs/api", "lib", "src", "src/components"],
    });
  });

  it("changes nothing more once the document holds the operations (replayed, not yet synced)", () => {
    const ops: PendingOp[] = [newFile, { op: "rename", from: "src/main.js", to: "src/app.js" }];
    const once = applyPending(listing, ops);
    expect(applyPending(once, ops)).toEqual(once);
  });

  it("brings back what an undone delete removed", () => {
    const deletion = {
      path: "src/lib",
      files: [{ id: "f-util000000000000", path: "src/lib/util.js", content: "x" }],
      folders: [],
    };
    const ops: PendingOp[] = [
      { op: "delete", path: "src/lib" },
      { op: "restore", deletion },
    ];
    expect(applyPending(listing, ops)).toEqual(listing);
  });
});

describe("pendingProblem", () => {
  it("refuses what the server would: a taken path (in any case), a missing one, a file as a folder", () => {
    expect(pendingProblem(listing, { ...newFile, path: "SRC/MAIN.JS" })).toBe(
      WORKSPACE_MESSAGES.exists("SRC/MAIN.JS"),
    );
    expect(pendingProblem(listing, { op: "rename", from: "nope.js", to: "x.js" })).toBe(
      WORKSPACE_MESSAGES.notFound("nope.js"),
    );
    expect(pendingProblem(listing, { ...newFile, path: "src/main.js/x.js" })).toBe(
      WORKSPACE_MESSAGES.underFile("src/main.js"),
    );
    expect(pendingProblem(listing, { op: "rename", from: "src", to: "src/inner" })).toBe(
      WORKSPACE_MESSAGES.intoItself,
    );
    expect(pendingProblem(listing, newFile)).toBeUndefined();
  });
});

describe("a file created offline whose path was taken", () => {
  it("goes to name (2).ext, and the queued operations on it follow", () => {
    expect(alternativePath("src/a.test.js", 2)).toBe("src/a.test (2).js");
    expect(alternativePath("src/.env", 3)).toBe("src/.env (3)");
    expect(remapPending({ op: "delete", path: "src/new.js" }, "src/new.js", "src/new (2).js")).toEqual({
      op: "delete",
      path: "src/new (2).js",
    });
  });
});
