import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { type Ack, type Joined, LANGUAGE_SERVER_MESSAGES, textDigest } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, emitAck, type TestEditor, waitFor } from "../../../test/collabClient";
import { startTestServer, type TestServer } from "../../../test/harness";

// The shared language servers on the real server, in the real sandbox: against clangd when it
// is installed, and always against a small LSP server of our own (test/fakeLanguageServer.mjs)
// that runs in the same sandbox, so the plumbing is proven on machines without clangd too.

const FAKE = fileURLToPath(new URL("../../../test/fakeLanguageServer.mjs", import.meta.url));
const CLANGD = ["/usr/bin/clangd", "/usr/bin/clangd-14"].find((f) => fs.existsSync(f));
const SERVERS = [
  ...(CLANGD ? [{ name: "clangd", binary: CLANGD }] : []),
  { name: "the fake server", binary: FAKE },
];

const PROGRAM = "int counter_value = 1;\nint counter_total = 2;\n\nint main(void) {\n  return counter_;\n}\n";
const AFTER_PREFIX = { line: 4, character: 17 };

/** Creates `path` with `content` and waits until `others` have it too. */
async function createFile(
  editor: TestEditor,
  sessionId: string,
  path: string,
  content: string,
  others: TestEditor[] = [],
) {
  expect((await editor.request("createFile", { sessionId, path, kind: "file", content })).ok).toBe(true);
  await waitFor(() => others.every((o) => o.text(path) === content), 5000, `${path} everywhere`);
}

const at = (editor: TestEditor, sessionId: string, path: string) => ({
  sessionId,
  path,
  digest: textDigest(editor.text(path)),
});

describe.each(SERVERS)("shared language servers ($name)", ({ binary }) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer("postgres", { CLANGD_PATH: binary, LSP_MAX_SERVERS: "8" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server?.close();
  });

  it("marks a C file's error for everyone in the session, without running it", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "diagnostics");
    await createFile(host, sessionId, "src/broken.c", "int main(void) {\n  return undeclared_thing;\n}\n", [
      guest,
    ]);
    const opened = await host.request("lspOpen", { sessionId, server: "clangd" }, 30_000);
    expect(opened.ok).toBe(true);
    const hasError = (p: {
      files: { path: string; diagnostics: { message: string; range: { start: { line: number } } }[] }[];
    }) =>
      p.files.some(
        (f) =>
          f.path === "src/broken.c" &&
          f.diagnostics.some((d) => d.message.includes("undeclared_thing") && d.range.start.line === 1),
      );
    await host.waitFor("lspDiagnostics", hasError, 20_000);
    await guest.waitFor("lspDiagnostics", hasError, 20_000);
    // Fixing it clears the mark for both.
    const text = host.file("src/broken.c");
    const start = host.text("src/broken.c").indexOf("undeclared_thing");
    text.doc?.transact(() => {
      text.delete(start, "undeclared_thing".length);
      text.insert(start, "0");
    });
    const isClear = (p: { files: { path: string; diagnostics: unknown[] }[] }) =>
      p.files.some((f) => f.path === "src/broken.c" && f.diagnostics.length === 0);
    await guest.waitFor("lspDiagnostics", isClear, 20_000);
    // Someone who arrives later gets what was reported so far with their open.
    const again = await guest.request("lspOpen", { sessionId, server: "clangd" });
    expect(again.ok && again.data.files.find((f) => f.path === "src/broken.c")?.diagnostics).toEqual([]);
  });

  it("gives a guest the same completions as the host, and hover and definition", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "completion");
    await createFile(host, sessionId, "src/count.c", PROGRAM, [guest]);
    // Until clangd has parsed the file it answers from the words alone (plain text items):
    // equal answers are compared once it reported on the file.
    expect((await guest.request("lspOpen", { sessionId, server: "clangd" }, 30_000)).ok).toBe(true);
    await guest.waitFor("lspDiagnostics", (p) => p.files.some((f) => f.path === "src/count.c"), 20_000);
    const request = { ...at(guest, sessionId, "src/count.c"), position: AFTER_PREFIX };
    const fromGuest = await guest.request("lspCompletion", request, 30_000);
    const fromHost = await host.request("lspCompletion", {
      ...at(host, sessionId, "src/count.c"),
      position: AFTER_PREFIX,
    });
    expect(fromGuest.ok && !fromGuest.data.stale).toBe(true);
    const labels =
      fromGuest.ok && !fromGuest.data.stale ? fromGuest.data.result.items.map((i) => i.label) : [];
    expect(labels).toEqual(expect.arrayContaining(["counter_value", "counter_total"]));
    expect(fromHost).toEqual(fromGuest);

    const onUse = { line: 4, character: 10 };
    const hover = await guest.request("lspHover", {
      ...at(guest, sessionId, "src/count.c"),
      position: { line: 0, character: 6 },
    });
    expect(hover.ok && !hover.data.stale && hover.data.result?.markdown).toContain("counter_value");
    const definition = await guest.request("lspDefinition", {
      ...at(guest, sessionId, "src/count.c"),
      position: { line: 1, character: 6 },
    });
    expect(definition.ok && !definition.data.stale && definition.data.result[0]).toMatchObject({
      path: "src/count.c",
      range: { start: { line: 1 } },
    });
    expect(onUse.line).toBe(4);
  });

  it("drops an answer asked on a text the server's copy does not reach", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "stale");
    await createFile(host, sessionId, "src/stale.c", PROGRAM, [guest]);
    const old = at(guest, sessionId, "src/stale.c");
    host.file("src/stale.c").insert(0, "// edited\n");
    await waitFor(() => guest.text("src/stale.c").startsWith("// edited"), 5000, "the edit");
    const answer = await guest.request("lspCompletion", { ...old, position: AFTER_PREFIX }, 30_000);
    expect(answer).toEqual({ ok: true, data: { stale: true } });
    // On the text as it is now, it answers.
    const fresh = await guest.request("lspCompletion", {
      ...at(guest, sessionId, "src/stale.c"),
      position: { line: 5, character: 17 },
    });
    expect(fresh.ok && fresh.data.stale).toBe(false);
  });

  it("refuses a viewer's rename and format (edits) but answers their reading requests", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "roles");
    await createFile(host, sessionId, "src/roles.c", PROGRAM);
    const viewer = await editors.open();
    const joined = (await viewer.join(sessionId)) as Ack<Joined>;
    const viewerId = joined.ok ? joined.data.self.id : "";
    expect((await host.request("setRole", { sessionId, participantId: viewerId, role: "viewer" })).ok).toBe(
      true,
    );
    await waitFor(() => viewer.text("src/roles.c") === PROGRAM, 5000, "the file at the viewer");
    const where = { ...at(viewer, sessionId, "src/roles.c"), position: { line: 0, character: 6 } };
    // Forged: the browser never offers a viewer these; the server refuses them anyway.
    expect(await emitAck(viewer.socket, "lspRename", { ...where, newName: "renamed" })).toMatchObject({
      ok: false,
      error: { code: "read_only" },
    });
    const format = { sessionId, path: "src/roles.c", digest: where.digest, tabSize: 2, insertSpaces: true };
    expect(await emitAck(viewer.socket, "lspFormat", format)).toMatchObject({
      ok: false,
      error: { code: "read_only" },
    });
    expect(viewer.text("src/roles.c")).toBe(PROGRAM);
    const hover = await viewer.request("lspHover", where, 30_000);
    expect(hover.ok && !hover.data.stale && hover.data.result?.markdown).toContain("counter_value");
    // The host may rename: the edits come back for the host's browser to apply.
    const renamed = await host.request("lspRename", { ...where, newName: "renamed" });
    expect(renamed.ok && !renamed.data.stale && renamed.data.result[0]?.edits.length).toBeGreaterThan(0);
    expect(await host.request("lspFormat", format)).toMatchObject({ ok: true, data: { stale: false } });
  });

  it("runs the server in a memory cgroup of its own, at LSP_MEMORY_LIMIT_BYTES", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "cgroup");
    await createFile(host, sessionId, "src/limits.c", PROGRAM);
    expect((await host.request("lspOpen", { sessionId, server: "clangd" }, 30_000)).ok).toBe(true);
    const instance = (await server.app.intelligence.pool).running(sessionId, "clangd");
    if (!instance) throw new Error("the session's server is not running");
    // Read from the host: the sandbox's own view of /proc is its own.
    const lines = fs.readFileSync(`/proc/${instance.client.pid}/cgroup`, "utf8").split("\n");
    const v1 = lines.find((line) => line.split(":")[1]?.split(",").includes("memory"));
    const group = (v1 ?? lines.find((line) => line.startsWith("0::")) ?? "").split(":")[2] ?? "";
    expect(group).toMatch(/ensemble-\d+-\d+\/(slot|run)-/);
    const limit = v1
      ? fs.readFileSync(`/sys/fs/cgroup/memory${group}/memory.limit_in_bytes`, "utf8")
      : fs.readFileSync(`/sys/fs/cgroup${group}/memory.max`, "utf8");
    expect(Number(limit)).toBe(512 * 1024 * 1024);
  });

  it("starts a killed server again on the next request, and the node runs on", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "killed");
    await createFile(host, sessionId, "src/killed.c", PROGRAM);
    expect((await host.request("lspOpen", { sessionId, server: "clangd" }, 30_000)).ok).toBe(true);
    const pool = await server.app.intelligence.pool;
    const first = pool.running(sessionId, "clangd");
    if (!first) throw new Error("the session's server is not running");
    process.kill(-first.client.pid, "SIGKILL");
    await waitFor(() => pool.running(sessionId, "clangd") === undefined, 10_000, "the server to be gone");
    const answer = await host.request(
      "lspCompletion",
      { ...at(host, sessionId, "src/killed.c"), position: AFTER_PREFIX },
      30_000,
    );
    expect(answer.ok && !answer.data.stale && answer.data.result.items.map((i) => i.label)).toEqual(
      expect.arrayContaining(["counter_value"]),
    );
    expect(pool.running(sessionId, "clangd")).not.toBe(first);
  });

  it("refuses requests from outside the session and malformed ones, and serves only C and C++", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "refusals");
    const outsider = await editors.open();
    const where = {
      sessionId,
      path: "src/main.c",
      digest: textDigest(""),
      position: { line: 0, character: 0 },
    };
    expect(await emitAck(outsider.socket, "lspCompletion", where)).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    expect(await emitAck(host.socket, "lspCompletion", { ...where, digest: "nope" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(await emitAck(host.socket, "lspHover", { ...where, path: "../../etc/passwd" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(await host.request("lspHover", { ...where, path: "src/main.js" })).toMatchObject({
      ok: false,
      error: { code: "not_found", message: LANGUAGE_SERVER_MESSAGES.notServed },
    });
  });
});

describe("shared language servers: stale in flight, crashes (the fake server)", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres", {
      CLANGD_PATH: FAKE,
      LSP_MAX_SERVERS: "1",
      LSP_IDLE_MS: "1500",
    });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server?.close();
  });
  const pool = () => server.app.intelligence.pool;

  it("runs the server in the sandbox: no network, a read-only workspace, its own uid", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "sandbox");
    await createFile(host, sessionId, "src/probe.c", PROGRAM);
    expect((await host.request("lspOpen", { sessionId, server: "clangd" })).ok).toBe(true);
    const instance = (await pool()).running(sessionId, "clangd");
    if (!instance) throw new Error("the session's server is not running");
    const seen = await instance.client.request<{
      interfaces: string[];
      canWriteWorkspace: boolean;
      workspace: string[];
      uid: number;
      siblings: string[];
      etc: string[];
    }>("ensemble/probe", {}, 5000);
    expect(seen.interfaces.filter((name) => name !== "lo")).toEqual([]);
    expect(seen.canWriteWorkspace).toBe(false);
    // Only the served files (and the project flags), not the session's JavaScript.
    expect(seen.workspace).toEqual(["compile_flags.txt", "src"]);
    // Of the host, only /usr and its own binary: not the files beside it, nor /etc's.
    expect(seen.siblings).toEqual(["fakeLanguageServer.mjs"]);
    expect(seen.etc).toEqual(["ld.so.cache"]);
    if (process.getuid?.() === 0) expect(seen.uid).not.toBe(0);
    await host.close();
  });

  it("drops an answer when the file changed while the server worked on it", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "in flight");
    await createFile(host, sessionId, "src/slow.c", `// SLOW_ANSWER\n${PROGRAM}`, [guest]);
    // One slot on this server: the last test's server goes idle first.
    await waitFor(async () => (await pool()).size === 0, 10_000, "the last test's server to go idle");
    expect((await host.request("lspOpen", { sessionId, server: "clangd" })).ok).toBe(true);
    const asked = guest.request("lspCompletion", {
      ...at(guest, sessionId, "src/slow.c"),
      position: { line: 5, character: 17 },
    });
    await new Promise((r) => setTimeout(r, 150));
    host.file("src/slow.c").insert(0, "int more;\n");
    expect(await asked).toEqual({ ok: true, data: { stale: true } });
    await host.close();
    await guest.close();
  });

  it("stops an idle server, holds the cap meanwhile, and restarts a crashed one on the next request", async () => {
    const first = await editors.hostAndGuest(server.api, "first");
    const second = await editors.hostAndGuest(server.api, "second");
    await waitFor(async () => (await pool()).size === 0, 10_000, "the last test's server to go idle");
    expect((await first.host.request("lspOpen", { sessionId: first.sessionId, server: "clangd" })).ok).toBe(
      true,
    );
    expect(await second.host.request("lspOpen", { sessionId: second.sessionId, server: "clangd" })).toEqual({
      ok: false,
      error: { code: "language_server_busy", message: LANGUAGE_SERVER_MESSAGES.busy },
    });
    // Nobody asks anything: after LSP_IDLE_MS the server stops and the slot is free.
    await waitFor(async () => (await pool()).size === 0, 10_000, "the idle server to stop");
    expect((await second.host.request("lspOpen", { sessionId: second.sessionId, server: "clangd" })).ok).toBe(
      true,
    );

    // A crash (the fake exits on this text) frees the slot; the next request starts a new server.
    const { sessionId, host } = second;
    await createFile(host, sessionId, "src/crash.c", "int CRASH_NOW;\n");
    await waitFor(async () => (await pool()).size === 0, 10_000, "the crashed server to be forgotten");
    const file = host.file("src/crash.c");
    file.delete(0, file.length);
    file.insert(0, PROGRAM);
    await waitFor(() => true, 100);
    const answer = await host.request("lspCompletion", {
      ...at(host, sessionId, "src/crash.c"),
      position: AFTER_PREFIX,
    });
    expect(answer.ok && !answer.data.stale && answer.data.result.items.length).toBeGreaterThan(0);
    expect((await pool()).size).toBe(1);
  });
});

describe("shared language servers without clangd", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres", { CLANGD_PATH: "/nonexistent/clangd" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server?.close();
  });

  it("answers that the service is unavailable and runs on", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "no clangd");
    expect(await host.request("lspOpen", { sessionId, server: "clangd" })).toEqual({
      ok: false,
      error: { code: "language_server_unavailable", message: LANGUAGE_SERVER_MESSAGES.unavailable },
    });
    expect((await host.request("createFile", { sessionId, path: "src/x.c", kind: "file" })).ok).toBe(true);
  });
});
