import { fileIdAt, listWorkspace } from "@ensemble/collab";
import { checkPath, STARTER_CODE, WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { DomainError } from "../../errors";
import { checkClientUpdate } from "./updateGuard";
import { Workspace } from "./workspace";

/** A server document with its workspace, and a client that has synced it. */
function setup() {
  const server = new Y.Doc();
  const workspace = new Workspace(server);
  workspace.ensureInitialised();
  let client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  /** What the browser does after a refusal: it starts again from the server's document. */
  const reset = () => {
    client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  };
  /** What the client sends for a local change, or the refusal of the guard. */
  const send = (change: (doc: Y.Doc) => void): DomainError | undefined => {
    const before = Y.encodeStateVector(client);
    change(client);
    const update = Y.encodeStateAsUpdate(client, before);
    try {
      checkClientUpdate(server, workspace, Y.decodeUpdate(update));
      Y.applyUpdate(server, update);
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  };
  const sync = () => Y.applyUpdate(client, Y.encodeStateAsUpdate(server, Y.encodeStateVector(client)));
  const paths = () => listWorkspace(server).files.map((f) => f.path);
  const text = (doc: Y.Doc, path: string) => doc.getText(fileIdAt(doc, path) ?? "missing");
  return {
    server,
    workspace,
    get client() {
      return client;
    },
    send,
    sync,
    reset,
    paths,
    text,
  };
}

describe("checkPath", () => {
  it("normalises a path", () => {
    expect(checkPath("./src//lib/util.js/")).toEqual({ ok: true, path: "src/lib/util.js" });
  });

  it.each([
    ["/etc/passwd", WORKSPACE_MESSAGES.absolutePath],
    ["src/../../x", WORKSPACE_MESSAGES.dotDot],
    ["a/.git/config", WORKSPACE_MESSAGES.dotGit],
    ["a/.GIT", WORKSPACE_MESSAGES.dotGit],
    ["a\u0000b", WORKSPACE_MESSAGES.controlCharacter],
    ["a\nb", WORKSPACE_MESSAGES.controlCharacter],
    ["a\\b", WORKSPACE_MESSAGES.backslash],
    ["é".repeat(128), WORKSPACE_MESSAGES.tooLong],
    [Array.from({ length: 17 }, () => "d").join("/"), WORKSPACE_MESSAGES.tooDeep],
    ["  ", WORKSPACE_MESSAGES.emptyPath],
  ])("refuses %j", (raw, message) => {
    expect(checkPath(raw)).toEqual({ ok: false, message });
  });

  it("accepts 16 levels and 255 bytes", () => {
    expect(checkPath(Array.from({ length: 16 }, () => "d").join("/")).ok).toBe(true);
    expect(checkPath("a".repeat(255)).ok).toBe(true);
  });
});

describe("Workspace", () => {
  it("starts a new session with the spec's tree", () => {
    const { server } = setup();
    expect(listWorkspace(server)).toMatchObject({
      files: [{ path: "src/main.js" }],
      folders: ["src", "src/components"],
    });
  });

  it("registers the texts of a document stored before the workspace model, every character kept", () => {
    const legacy = new Y.Doc();
    legacy.getText("main.js").insert(0, `${STARTER_CODE.javascript}// edited`);
    legacy.getText("main.py").insert(0, STARTER_CODE.python);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(legacy));
    const workspace = new Workspace(doc);
    expect(workspace.ensureInitialised()).toBe(true);
    expect(workspace.read()).toEqual([
      { path: "src/main.js", content: `${STARTER_CODE.javascript}// edited` },
      { path: "src/main.py", content: STARTER_CODE.python },
    ]);
    expect(workspace.ensureInitialised()).toBe(false);
    // Their existing text counts against the limits.
    expect(workspace.sizeProblem(new Map([["main.js", WORKSPACE_LIMITS.maxFileBytes]]))).toBe(
      WORKSPACE_MESSAGES.fileTooLarge,
    );
  });

  it("creates, renames and deletes files and folders", () => {
    const { workspace, paths, server } = setup();
    workspace.createFile("src/lib/util.js", "export const x = 1;\n");
    workspace.createFolder("docs");
    workspace.rename("src/lib", "lib");
    expect(paths()).toEqual(["lib/util.js", "src/main.js"]);
    expect(listWorkspace(server).folders).toEqual(["docs", "lib", "src", "src/components"]);
    workspace.rename("lib/util.js", "lib/helpers.js");
    expect(workspace.read().find((f) => f.path === "lib/helpers.js")?.content).toBe("export const x = 1;\n");
    workspace.delete("lib");
    expect(paths()).toEqual(["src/main.js"]);
    expect(listWorkspace(server).folders).toEqual(["docs", "src", "src/components"]);
  });

  it("keeps the text (and edits made during a rename) under the new path", () => {
    const ctx = setup();
    const { workspace, send, sync, text, server } = ctx;
    const id = fileIdAt(server, "src/main.js");
    workspace.rename("src/main.js", "src/app.js");
    // The client typed into the file before it heard of the rename.
    expect(send((doc) => text(doc, "src/main.js").insert(0, "// typed\n"))).toBeUndefined();
    sync();
    expect(fileIdAt(ctx.client, "src/app.js")).toBe(id);
    expect(text(server, "src/app.js").toString()).toBe(`// typed\n${STARTER_CODE.javascript}`);
  });

  it.each([
    ["a file that exists, in another case", (w: Workspace) => w.createFile("SRC/Main.js")],
    ["a folder that exists", (w: Workspace) => w.createFolder("src/components")],
    ["a file under a file", (w: Workspace) => w.createFile("src/main.js/x.js")],
  ])("refuses %s and changes nothing", (_label, op) => {
    const { workspace, server } = setup();
    const before = Y.encodeStateAsUpdate(server);
    expect(() => op(workspace)).toThrow(DomainError);
    expect(Y.encodeStateAsUpdate(server)).toEqual(before);
  });

  it("refuses moving a folder into itself and renaming what does not exist", () => {
    const { workspace } = setup();
    expect(() => workspace.rename("src", "src/inner")).toThrow(WORKSPACE_MESSAGES.intoItself);
    expect(() => workspace.rename("nope.js", "x.js")).toThrow(WORKSPACE_MESSAGES.notFound("nope.js"));
    expect(() => workspace.delete("nope")).toThrow(WORKSPACE_MESSAGES.notFound("nope"));
  });

  it("stores a new file's text with LF line endings", () => {
    const { workspace } = setup();
    workspace.createFile("crlf.txt", "a\r\nb\rc\n");
    expect(workspace.read().find((f) => f.path === "crlf.txt")?.content).toBe("a\nb\nc\n");
  });

  it("allows a rename that only changes case", () => {
    const { workspace, paths } = setup();
    workspace.rename("src/main.js", "src/Main.js");
    expect(paths()).toEqual(["src/Main.js"]);
  });

  it(`holds at most ${WORKSPACE_LIMITS.maxFiles} files`, () => {
    const { workspace } = setup();
    for (let i = 1; i < WORKSPACE_LIMITS.maxFiles; i++) workspace.createFile(`f/${i}.js`);
    expect(() => workspace.createFile("one-more.js")).toThrow(WORKSPACE_MESSAGES.tooManyFiles);
  });

  it("refuses a file over 1 MiB and a workspace over 10 MiB", () => {
    const { workspace } = setup();
    expect(() => workspace.createFile("big.txt", "x".repeat(WORKSPACE_LIMITS.maxFileBytes + 1))).toThrow(
      WORKSPACE_MESSAGES.fileTooLarge,
    );
    const almostMiB = "x".repeat(WORKSPACE_LIMITS.maxFileBytes - 100);
    for (let i = 0; i < 10; i++) workspace.createFile(`big-${i}.txt`, almostMiB);
    expect(() => workspace.createFile("one-more.txt", almostMiB)).toThrow(
      WORKSPACE_MESSAGES.workspaceTooLarge,
    );
  });
});

describe("Workspace.restore", () => {
  it("lists the files again, empty, under their ids; the texts follow as the undoer's edits", () => {
    const { workspace, send, sync, server, text } = setup();
    const content = "x".repeat(WORKSPACE_LIMITS.maxFileBytes);
    workspace.createFile("lib/full.txt", content);
    workspace.createFolder("lib/empty");
    const id = fileIdAt(server, "lib/full.txt") ?? "";
    sync();
    workspace.delete("lib");
    const restore = [{ id, path: "lib/full.txt", bytes: content.length }];
    expect(workspace.restore("lib", restore, ["lib/empty"])).toBe("lib");
    expect(fileIdAt(server, "lib/full.txt")).toBe(id);
    expect(text(server, "lib/full.txt").toString()).toBe("");
    // The undoer's document had not seen the delete: its put-back replaces what it holds.
    expect(
      send((doc) => {
        const own = doc.getText(id);
        doc.transact(() => {
          own.delete(0, own.length);
          own.insert(0, content);
        });
      }),
    ).toBeUndefined();
    expect(text(server, "lib/full.txt").toString()).toBe(content);
    // Again (its answer was lost): answered as the first, nothing changes.
    const before = Y.encodeStateVector(server);
    expect(workspace.restore("lib", restore, ["lib/empty"])).toBe("lib");
    expect(Y.encodeStateVector(server)).toEqual(before);
  });

  it("refuses, changing nothing, a restore whose texts would pass the workspace's limit", () => {
    const { workspace, server, paths } = setup();
    const almostMiB = "x".repeat(WORKSPACE_LIMITS.maxFileBytes - 100);
    workspace.createFile("lib/a.txt", almostMiB);
    const id = fileIdAt(server, "lib/a.txt") ?? "";
    workspace.delete("lib");
    for (let i = 0; i < 10; i++) workspace.createFile(`big-${i}.txt`, almostMiB);
    const before = Y.encodeStateVector(server);
    expect(() => workspace.restore("lib", [{ id, path: "lib/a.txt", bytes: almostMiB.length }], [])).toThrow(
      WORKSPACE_MESSAGES.workspaceTooLarge,
    );
    expect(Y.encodeStateVector(server)).toEqual(before);
    expect(paths()).not.toContain("lib/a.txt");
  });
});

describe("checkClientUpdate", () => {
  it("accepts typing and deleting in a file", () => {
    const { send, text, server } = setup();
    expect(send((doc) => text(doc, "src/main.js").insert(0, "héllo 🙂 "))).toBeUndefined();
    expect(send((doc) => text(doc, "src/main.js").delete(0, 3))).toBeUndefined();
    expect(text(server, "src/main.js").toString()).toBe(`lo 🙂 ${STARTER_CODE.javascript}`);
  });

  it.each([
    ["adds a file", (doc: Y.Doc) => doc.getMap("files").set("f-forged", "evil.js")],
    ["renames a file", (doc: Y.Doc) => doc.getMap("files").set(fileIdAt(doc, "src/main.js") ?? "", "x.js")],
    ["removes a file", (doc: Y.Doc) => doc.getMap("files").delete(fileIdAt(doc, "src/main.js") ?? "")],
    ["adds a folder", (doc: Y.Doc) => doc.getMap("folders").set("evil", true)],
    ["removes a folder", (doc: Y.Doc) => doc.getMap("folders").delete("src/components")],
    ["writes a new root text", (doc: Y.Doc) => doc.getText("f-unregistered").insert(0, "x")],
    ["writes a root map", (doc: Y.Doc) => doc.getMap("other").set("k", 1)],
    [
      "inserts a carriage return",
      (doc: Y.Doc) => doc.getText(fileIdAt(doc, "src/main.js") ?? "").insert(0, "a\r\nb"),
    ],
    [
      "formats a file's text",
      (doc: Y.Doc) => doc.getText(fileIdAt(doc, "src/main.js") ?? "").format(0, 3, { bold: true }),
    ],
    [
      "embeds a type in a file",
      (doc: Y.Doc) => doc.getText(fileIdAt(doc, "src/main.js") ?? "").insertEmbed(0, new Y.Map()),
    ],
  ])("refuses an update that %s, whole", (_label, change) => {
    const { send, server, paths } = setup();
    const before = Y.encodeStateAsUpdate(server);
    const refusal = send((doc) => {
      doc.transact(() => {
        doc.getText(fileIdAt(doc, "src/main.js") ?? "").insert(0, "typed in the same update ");
        change(doc);
      });
    });
    expect(refusal?.code).toBe("update_refused");
    expect(refusal?.details.missingContent).toBeUndefined();
    expect(Y.encodeStateAsUpdate(server)).toEqual(before);
    expect(paths()).toEqual(["src/main.js"]);
  });

  it("refuses a delete of content the server does not have yet (it would wait and hit a later file)", () => {
    const { server, workspace } = setup();
    // A forged delete set naming the server's next items: Yjs would keep it pending and
    // apply it to whatever the server writes there next (a new file's entry).
    const update = deleteSetOnly(server.clientID, Y.getState(server.store, server.clientID), 5);
    expect(() => checkClientUpdate(server, workspace, Y.decodeUpdate(update))).toThrow(DomainError);
    workspace.createFile("later.js");
    expect(listWorkspace(server).files.map((f) => f.path)).toContain("later.js");
  });

  it("refuses growing a file past 1 MiB, counting what the same update deletes", () => {
    const { send, text, server, reset } = setup();
    const half = "y".repeat(WORKSPACE_LIMITS.maxFileBytes / 2);
    expect(send((doc) => text(doc, "src/main.js").insert(0, half))).toBeUndefined();
    expect(send((doc) => text(doc, "src/main.js").insert(0, half))?.message).toBe(
      WORKSPACE_MESSAGES.fileTooLarge,
    );
    reset();
    const length = text(server, "src/main.js").length;
    // Replacing the whole text with as much again fits.
    expect(
      send((doc) =>
        doc.transact(() => {
          text(doc, "src/main.js").delete(0, length);
          text(doc, "src/main.js").insert(0, half);
        }),
      ),
    ).toBeUndefined();
    expect(text(server, "src/main.js").toString()).toBe(half);
  });

  it("asks for a resync (not an error) when an update builds on one the server missed", () => {
    const { client, server, workspace, text } = setup();

    const first = Y.encodeStateVector(client);
    text(client, "src/main.js").insert(0, "a");
    const second = Y.encodeStateVector(client);
    text(client, "src/main.js").insert(1, "b");
    const late = Y.encodeStateAsUpdate(client, second);
    const refusal = (() => {
      try {
        checkClientUpdate(server, workspace, Y.decodeUpdate(late));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).details.missingContent).toBe(true);
    // Everything the server lacks passes.
    expect(() =>
      checkClientUpdate(server, workspace, Y.decodeUpdate(Y.encodeStateAsUpdate(client, first))),
    ).not.toThrow();
  });
});

/** A Yjs v1 update with no structs and one deleted range. */
function deleteSetOnly(client: number, clock: number, length: number): Uint8Array {
  const bytes: number[] = [];
  const varUint = (n: number) => {
    let rest = n;
    while (rest > 0x7f) {
      bytes.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 128);
    }
    bytes.push(rest);
  };
  varUint(0); // clients with structs
  varUint(1); // clients with deletes
  varUint(client);
  varUint(1); // ranges
  varUint(clock);
  varUint(length);
  return new Uint8Array(bytes);
}
