import { foldersMap } from "@ensemble/collab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, typeLine, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import { compactSession } from "./history";
import { createReplayRepo } from "./repo";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A moment strictly after everything stored so far and before anything done next. */
async function moment(): Promise<number> {
  await sleep(30);
  const at = Date.now();
  await sleep(30);
  return at;
}

async function timelineOf(editor: TestEditor, sessionId: string) {
  const ack = await editor.request("getReplayTimeline", { sessionId });
  if (!ack.ok) throw new Error(ack.error.message);
  return ack.data;
}

async function frameAt(editor: TestEditor, sessionId: string, at: number) {
  await sleep(210);
  const ack = await editor.request("seekReplay", { sessionId, at });
  if (!ack.ok) throw new Error(ack.error.message);
  return ack.data;
}

describe.each(DATABASES)("replay's restore, terminal and retention on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const count = async (table: string, sessionId: string) =>
    Number(
      (
        await server.db.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM ${table} WHERE session_id = $1`,
          [sessionId],
        )
      )[0]?.n,
    );

  /** Waits until the history stops growing (every update of what was done is stored). */
  async function settled(sessionId: string) {
    let last = -1;
    for (;;) {
      const now = await count("doc_history", sessionId);
      if (now === last) return;
      last = now;
      await sleep(200);
    }
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { HISTORY_RETENTION_DAYS: "7", RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("restores a moment's empty folders and its language for everyone, and the frame shows both", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "folders");
    expect((await host.request("createFile", { sessionId, path: "notes", kind: "folder" })).ok).toBe(true);
    expect((await host.request("createFile", { sessionId, path: "notes/drafts", kind: "folder" })).ok).toBe(
      true,
    );
    expect((await host.request("languageUpdate", { sessionId, language: "python" })).ok).toBe(true);
    await waitFor(() => guest.text("src/main.py") !== "", 10_000, "the Python main file");
    await settled(sessionId);
    const then = await moment();

    expect((await host.request("deletePath", { sessionId, path: "notes" })).ok).toBe(true);
    expect((await host.request("createFile", { sessionId, path: "later", kind: "folder" })).ok).toBe(true);
    expect((await host.request("languageUpdate", { sessionId, language: "javascript" })).ok).toBe(true);
    await settled(sessionId);

    const frame = await frameAt(host, sessionId, then);
    expect(frame.folders).toEqual(expect.arrayContaining(["notes", "notes/drafts"]));
    expect(frame.folders).not.toContain("later");
    expect(frame.language).toBe("python");
    const now = await frameAt(host, sessionId, Date.now());
    expect(now.folders).not.toContain("notes");
    expect(now.language).toBe("javascript");

    const switched = guest.waitFor("languageUpdate", (u) => u.language === "python");
    expect(await host.request("restoreVersion", { sessionId, at: then })).toEqual({
      ok: true,
      data: { refused: [] },
    });
    expect((await switched).sessionId).toBe(sessionId);
    await waitFor(
      () => foldersMap(guest.doc).has("notes/drafts") && !foldersMap(guest.doc).has("later"),
      10_000,
      "the folders on the guest",
    );
    const [session] = await server.db.query<{ language: string }>(
      "SELECT language FROM sessions WHERE id = $1",
      [sessionId],
    );
    expect(session?.language).toBe("python");
    // The restore is history too: its moment shows the folders and language it brought back.
    await settled(sessionId);
    const restored = await frameAt(host, sessionId, Date.now());
    expect(restored.folders).toEqual(expect.arrayContaining(["notes", "notes/drafts"]));
    expect(restored.folders).not.toContain("later");
    expect(restored.language).toBe("python");
  });

  it("keeps the runs before a terminal clear in the timeline, in order, with the clear", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "cleared");
    host.file().delete(0, host.file().length);
    host.file().insert(0, 'console.log("before the clear")');
    await waitFor(() => guest.text() === host.text(), 10_000, "the guest's copy");
    await settled(sessionId);
    await host.request("runCode", { sessionId });
    await waitFor(() => host.events("executionResult").length > 0, 30_000, "the run's end");
    // `clear` answers with no echo: the clear itself.
    expect((await host.request("terminalCommand", { sessionId, command: "clear" })).ok).toBe(true);
    await host.waitFor("terminalUpdate", (u) =>
      (u.entries ?? (u.entry ? [u.entry] : [])).some((e) => e.type === "clear"),
    );
    await typeLine(host, sessionId, "help");

    const events = (await timelineOf(guest, sessionId)).events;
    const kinds = events.map((e) => e.kind);
    const output = events.findIndex((e) => e.kind === "output" && e.text.includes("before the clear"));
    const clear = kinds.indexOf("clear");
    expect(output).toBeGreaterThanOrEqual(0);
    expect(clear).toBeGreaterThan(output);
    expect(events.findIndex((e) => e.text === "$ help")).toBeGreaterThan(clear);
    // The live terminal starts at the clear: a newcomer's history has only what came after it.
    const late = await editors.open();
    expect((await late.join(sessionId)).ok).toBe(true);
    late.send("getTerminalHistory", sessionId);
    const history = await late.waitFor("terminalHistory");
    expect(history.history.map((e) => e.content)).not.toContain("before the clear\n");
    expect(history.history.some((e) => e.content === "$ help")).toBe(true);
  });

  it("answers a timeline that grows as the session goes on", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "growing");
    host.file().insert(host.file().length, "\n// one");
    await settled(sessionId);
    const first = await timelineOf(host, sessionId);
    await moment();
    host.file().insert(host.file().length, "\n// two");
    await typeLine(host, sessionId, "help");
    await settled(sessionId);
    const second = await timelineOf(host, sessionId);
    expect(second.edits).toBeGreaterThan(first.edits);
    expect(second.end ?? 0).toBeGreaterThan(first.end ?? 0);
    expect(second.events.length).toBeGreaterThan(first.events.length);
  });

  it("deletes the history of sessions ended past the retention, and of no other", async () => {
    const sessions: Record<"old" | "recent" | "open", string> = { old: "", recent: "", open: "" };
    const repo = createReplayRepo(server.db);
    for (const name of ["old", "recent", "open"] as const) {
      const { sessionId, host } = await editors.hostAndGuest(server.api, name);
      for (const char of "some typing") host.file().insert(host.file().length, char);
      await settled(sessionId);
      // Part folded, part not: every place the history lives is emptied.
      await compactSession(repo, sessionId, new Date(Date.now() + 1000), {
        layout: { chunkEdits: 4, chunkSpanMs: 60_000, checkpointEvery: 4 },
      });
      host.file().insert(host.file().length, "!");
      await settled(sessionId);
      sessions[name] = sessionId;
    }
    await server.db.query("UPDATE sessions SET ended_at = now() - interval '8 days' WHERE id = $1", [
      sessions.old,
    ]);
    await server.db.query("UPDATE sessions SET ended_at = now() - interval '6 days' WHERE id = $1", [
      sessions.recent,
    ]);
    const tables = ["doc_history", "doc_history_chunks", "doc_history_checkpoints"];
    const sizes = async (sessionId: string) => Promise.all(tables.map((t) => count(t, sessionId)));
    const kept = { recent: await sizes(sessions.recent), open: await sizes(sessions.open) };
    expect((await sizes(sessions.old)).every((n) => n > 0)).toBe(true);

    // HISTORY_RETENTION_DAYS=7 (this server's setting).
    expect(await server.app.replay.jobs.forgetEnded()).toBeGreaterThanOrEqual(1);
    expect(await sizes(sessions.old)).toEqual([0, 0, 0]);
    expect(await sizes(sessions.recent)).toEqual(kept.recent);
    expect(await sizes(sessions.open)).toEqual(kept.open);
    // The session itself stays: its replay now says there is nothing to play.
    const [still] = await server.db.query<{ id: string }>("SELECT id FROM sessions WHERE id = $1", [
      sessions.old,
    ]);
    expect(still?.id).toBe(sessions.old);
    // Two days on, the recent one is past it too.
    await server.app.replay.jobs.forgetEnded(new Date(Date.now() + 2 * 86_400_000));
    expect(await sizes(sessions.recent)).toEqual([0, 0, 0]);
    expect(await sizes(sessions.open)).toEqual(kept.open);
  });
});
