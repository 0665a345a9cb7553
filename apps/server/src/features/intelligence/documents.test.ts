import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { textDigest } from "@ensemble/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentFeed, pathOfUri, uriOf } from "./documents";
import { HostFolder, sweepStaleFolders } from "./folder";
import { CLANGD } from "./servers";

type Sent = { method: string; uri: string; version?: number; text?: string };

async function feed() {
  const folder = await HostFolder.create(undefined);
  const sent: Sent[] = [];
  const documents = new DocumentFeed(CLANGD, folder, (method, params) => {
    const p = params as {
      textDocument: { uri: string; version?: number; text?: string };
      contentChanges?: { text: string }[];
    };
    sent.push({
      method,
      uri: p.textDocument.uri,
      version: p.textDocument.version,
      text: p.textDocument.text ?? p.contentChanges?.[0]?.text,
    });
  });
  folders.push(folder);
  return { folder, sent, documents };
}

const folders: HostFolder[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await folder.destroy();
});

describe("DocumentFeed", () => {
  it("opens the served files, writes them for #include, and leaves the others out", async () => {
    const { folder, sent, documents } = await feed();
    await documents.sync([
      { path: "src/main.c", content: "int main(void) { return 0; }\n" },
      { path: "src/util.h", content: "int util(void);\n" },
      { path: "src/main.js", content: "console.log(1)\n" },
    ]);
    expect(sent.map((s) => [s.method, pathOfUri(s.uri), s.version])).toEqual([
      ["textDocument/didOpen", "src/main.c", 1],
      ["textDocument/didOpen", "src/util.h", 1],
    ]);
    expect(await fs.readFile(path.join(folder.dir, "src/util.h"), "utf8")).toBe("int util(void);\n");
    await expect(fs.access(path.join(folder.dir, "src/main.js"))).rejects.toThrow();
    expect(documents.state("src/main.c")).toEqual({
      digest: textDigest("int main(void) { return 0; }\n"),
      version: 1,
      isOpen: true,
    });
  });

  it("sends a change with a new version, re-reads the sources when a header changes, closes a deleted file", async () => {
    const { folder, sent, documents } = await feed();
    const files = [
      { path: "main.c", content: '#include "a.h"\n' },
      { path: "a.h", content: "int a;\n" },
    ];
    await documents.sync(files);
    sent.length = 0;
    await documents.sync(files);
    expect(sent).toEqual([]);
    await documents.sync([files[0] as (typeof files)[0], { path: "a.h", content: "int a, b;\n" }]);
    expect(sent.map((s) => [s.method, pathOfUri(s.uri), s.version, s.text])).toEqual([
      ["textDocument/didChange", "a.h", 2, "int a, b;\n"],
      // The source includes it: the same text again, so clangd reads the header anew.
      ["textDocument/didChange", "main.c", 2, '#include "a.h"\n'],
    ]);
    sent.length = 0;
    await documents.sync([files[0] as (typeof files)[0]]);
    expect(sent.map((s) => [s.method, pathOfUri(s.uri)])).toEqual([
      ["textDocument/didClose", "a.h"],
      ["textDocument/didChange", "main.c"],
    ]);
    expect(documents.state("a.h")).toBeUndefined();
    await expect(fs.access(path.join(folder.dir, "a.h"))).rejects.toThrow();
  });

  it("opens at most 16 files unasked, and one more when someone asks about it", async () => {
    const { sent, documents } = await feed();
    const files = Array.from({ length: 20 }, (_, i) => ({
      path: `f${String(i).padStart(2, "0")}.c`,
      content: "",
    }));
    await documents.sync(files);
    expect(sent.filter((s) => s.method === "textDocument/didOpen")).toHaveLength(16);
    expect(documents.state("f19.c")?.isOpen).toBe(false);
    await documents.sync(files, "f19.c");
    expect(documents.state("f19.c")?.isOpen).toBe(true);
  });
});

describe("LSP addresses", () => {
  it("maps workspace paths into the sandbox's folder and back; anything outside it is not ours", () => {
    expect(uriOf("src/my file.c")).toBe("file:///box/src/my%20file.c");
    expect(pathOfUri(uriOf("src/my file.c"))).toBe("src/my file.c");
    expect(pathOfUri("file:///usr/include/stdio.h")).toBeUndefined();
    expect(pathOfUri("file:///boxer/a.c")).toBeUndefined();
    expect(pathOfUri("https://example.test/box/a.c")).toBeUndefined();
  });
});

describe("HostFolder", () => {
  it("refuses paths that would leave it", async () => {
    const folder = await HostFolder.create(undefined);
    folders.push(folder);
    for (const name of ["../escape.c", "/etc/x.c", "a/../../b.c", ""]) {
      expect(await folder.write(name, "x")).toBe(false);
    }
  });
});

describe("sweepStaleFolders", () => {
  it("removes the folders of a server that is gone, and keeps ours", async () => {
    const ours = await HostFolder.create(undefined);
    folders.push(ours);
    // A pid above the kernel's pid_max is never alive.
    const stale = path.join(os.tmpdir(), "ensemble-lsp-99999999-test");
    await fs.mkdir(path.join(stale, "src"), { recursive: true });
    await sweepStaleFolders();
    await expect(fs.access(stale)).rejects.toThrow();
    await fs.access(ours.dir);
  });
});
