import {
  LANGUAGE_MAIN_FILES,
  PROTOCOL_VERSION,
  type ReplayFrame,
  SESSION_ENDED_MESSAGE,
} from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, emitAck, type TestEditor, typeLine, waitFor } from "../../../test/collabClient";
import { DATABASES, socketClient, startTestServer, type TestServer } from "../../../test/harness";
import { createLogger } from "../../logger";
import { compactSession, documentAt } from "./history";
import { createChunkPacker } from "./packer";
import { createReplayRepo } from "./repo";

const MAIN = LANGUAGE_MAIN_FILES.javascript;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Types `text` at the end of the main file, one update per character, as a browser sends keystrokes. */
function typeText(editor: TestEditor, text: string) {
  for (const char of text) editor.file().insert(editor.file().length, char);
}

const seek = async (editor: TestEditor, sessionId: string, at: number) => {
  // Seeks are metered (the command class): a test that makes many spaces them as the slider does.
  await sleep(210);
  const ack = await editor.request("seekReplay", { sessionId, at });
  if (!ack.ok) throw new Error(ack.error.message);
  return ack.data;
};

const mainOf = (frame: ReplayFrame) => frame.files.find((f) => f.path === MAIN);

/** Each moment's frame (text, runs, last edit), to compare the history before and after a compaction. */
async function back(editor: TestEditor, sessionId: string, moments: { at: number; text: string }[]) {
  const frames: ReplayFrame[] = [];
  for (const { at, text } of moments) {
    const frame = await seek(editor, sessionId, at);
    expect(mainOf(frame)?.content).toBe(text);
    frames.push(frame);
  }
  return frames;
}

describe.each(DATABASES)("replay on %s", (kind) => {
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

  /** Waits until the server applied `text` and stored every update of it (the history stops growing). */
  async function settled(sessionId: string, text: string) {
    await waitFor(
      () => server.app.collab.rooms.loaded(sessionId)?.text(MAIN) === text,
      10_000,
      "the server's text",
    );
    let last = -1;
    for (;;) {
      const now = await count("doc_history", sessionId);
      if (now === last) return;
      last = now;
      await sleep(200);
    }
  }

  /** A moment strictly after everything stored so far and before anything typed next. */
  async function moment(): Promise<number> {
    await sleep(20);
    const at = Date.now();
    await sleep(20);
    return at;
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("keeps every edit with its author through compactions, and a seek gives each moment's text exactly", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "replay");
    const guestJoin = await guest.join(sessionId);
    if (!guestJoin.ok) throw new Error(guestJoin.error.message);
    const guestId = guestJoin.data.self.id;
    const moments: { at: number; text: string }[] = [];
    const before = Date.now() - 60_000;

    typeText(host, "\n// host: one");
    await settled(sessionId, host.text());
    moments.push({ at: await moment(), text: host.text() });
    await waitFor(() => guest.text() === host.text(), 5000, "the guest's copy");
    typeText(guest, "\n// guest: two");
    await settled(sessionId, guest.text());
    moments.push({ at: await moment(), text: guest.text() });

    // Everyone leaves: the room unloads and compaction folds the log into the snapshot,
    // deleting its rows. The history keeps them.
    const historyRows = await count("doc_history", sessionId);
    await host.close();
    await guest.close();
    await waitFor(() => !server.app.collab.rooms.isLoaded(sessionId), 10_000, "the room to unload");
    expect(await count("doc_updates", sessionId)).toBe(0);
    expect(await count("doc_history", sessionId)).toBe(historyRows);

    const back = await editors.open(hostUser.token);
    expect((await back.join(sessionId)).ok).toBe(true);
    await waitFor(() => back.client.synced && back.text() === moments[1]?.text, 10_000, "the reload");
    back.file().delete(0, 3);
    typeText(back, "\n// host again: three");
    await settled(sessionId, back.text());
    moments.push({ at: await moment(), text: back.text() });

    expect((await seek(back, sessionId, before)).files).toEqual([]);
    for (const { at, text } of moments) {
      const frame = await seek(back, sessionId, at);
      expect(mainOf(frame)?.content).toBe(text);
      // Every character has exactly one author.
      expect(mainOf(frame)?.runs.reduce((sum, [, length]) => sum + length, 0)).toBe(text.length);
      expect(frame.lastEditAt).toBeLessThanOrEqual(at);
    }
    // Who typed what: the starter is the server's, then the host's line, then the guest's.
    const middleFrame = await seek(back, sessionId, moments[1]?.at ?? 0);
    const middle = mainOf(middleFrame);
    expect(middle?.runs.map(([author]) => middleFrame.authors[author])).toEqual([
      null,
      hostUser.user.id,
      guestId,
    ]);
    expect(middle?.runs.slice(1).map(([, length]) => length)).toEqual([
      "\n// host: one".length,
      "\n// guest: two".length,
    ]);

    const timeline = await back.request("getReplayTimeline", { sessionId });
    if (!timeline.ok) throw new Error(timeline.error.message);
    expect(timeline.data.edits).toBe(await count("doc_history", sessionId));
    expect(timeline.data.activity.reduce((a, b) => a + b, 0)).toBe(timeline.data.edits);
    expect(timeline.data.start).toBeLessThanOrEqual(moments[0]?.at ?? 0);
    expect(timeline.data.end).toBeLessThanOrEqual(moments[2]?.at ?? 0);
    expect(timeline.data.authors).toEqual(
      expect.arrayContaining([
        { id: null, name: "Ensemble" },
        { id: hostUser.user.id, name: hostUser.user.name },
        { id: guestId, name: "Anonymous" },
      ]),
    );
  });

  it("builds a moment once for every seek that lands on it, the slider's opening at the end included", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "moments");
    typeText(host, "\n// one");
    await settled(sessionId, host.text());
    const middle = { at: await moment(), text: host.text() };
    typeText(host, "\n// two");
    await settled(sessionId, host.text());
    const timeline = await host.request("getReplayTimeline", { sessionId });
    if (!timeline.ok) throw new Error(timeline.error.message);
    const end = timeline.data.end ?? 0;
    const built = await seek(host, sessionId, end);
    expect(mainOf(built)?.content).toBe(host.text());

    // The stored history now says something else: every row is the first update again.
    await server.db.query(
      `UPDATE doc_history SET data = (SELECT data FROM doc_history WHERE session_id = $1 ORDER BY id LIMIT 1)
       WHERE session_id = $1`,
      [sessionId],
    );
    expect(await seek(host, sessionId, end)).toEqual(built);
    // A moment not built before is read from the rows as they now are.
    const rebuilt = mainOf(await seek(host, sessionId, middle.at))?.content;
    expect(rebuilt).not.toBe(middle.text);
    expect(middle.text.startsWith(rebuilt ?? "-")).toBe(true);
  });

  it("builds the end once while the open panel asks for the timeline again as people type", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "refreshes");
    // Every moment built reads its checkpoint first: the builds are counted by that query.
    const query = server.db.query.bind(server.db);
    let builds = 0;
    server.db.query = ((text: string, params?: readonly unknown[], name?: string) => {
      if (text.includes("FROM doc_history_checkpoints") && params?.[0] === sessionId) builds++;
      return query(text, params, name);
    }) as typeof server.db.query;
    try {
      let end = 0;
      for (const line of ["\n// one", "\n// two", "\n// three"]) {
        typeText(host, line);
        await settled(sessionId, host.text());
        const timeline = await host.request("getReplayTimeline", { sessionId });
        if (!timeline.ok) throw new Error(timeline.error.message);
        expect(timeline.data.end).toBeGreaterThan(end);
        end = timeline.data.end ?? 0;
        await sleep(100);
      }
      expect(builds).toBe(1);
      // The slider's seek to the latest end builds it then, exactly.
      expect(mainOf(await seek(host, sessionId, end))?.content).toBe(host.text());
      expect(builds).toBe(2);
    } finally {
      server.db.query = query;
    }
  });

  it("folds the history into chunks and keyframes, and every moment seeks to the same text before and after", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "long");
    const typed = "abcdefghij".repeat(70);
    // Bursts of typing with pauses between: the moments between them are known exactly.
    const moments: { at: number; text: string }[] = [];
    for (let burst = 0; burst < 7; burst++) {
      typeText(host, typed.slice(burst * 100, burst * 100 + 100));
      if (burst === 3) host.file().delete(40, 150);
      await settled(sessionId, host.text());
      moments.push({ at: await moment(), text: host.text() });
    }
    const rows = await count("doc_history", sessionId);
    const repo = createReplayRepo(server.db);
    const before = await back(host, sessionId, moments);
    const timelineBefore = await host.request("getReplayTimeline", { sessionId });
    const times = await server.db.query<{ at: Date }>(
      "SELECT DISTINCT at FROM doc_history WHERE session_id = $1 ORDER BY at",
      [sessionId],
    );
    const ticks = new Map<number, ReplayFrame>();
    for (const { at } of times.filter((_, i) => i % Math.ceil(times.length / 8) === 0)) {
      const ms = new Date(at).getTime();
      ticks.set(ms, await seek(host, sessionId, ms));
    }
    expect(ticks.size).toBeGreaterThan(3);
    // A checkpoint stored the old way, by a walk, in the middle of what becomes a chunk.
    const middle = await repo.position(sessionId, new Date((moments[2]?.at ?? 0) + 1));
    if (!middle) throw new Error("no history");
    const walked = await documentAt(repo, sessionId, middle.upto - 5);
    await repo.saveCheckpoint(sessionId, {
      upto: walked.upto,
      at: middle.at,
      data: Y.encodeStateAsUpdate(walked.doc),
      authors: walked.authors,
    });
    walked.doc.destroy();
    // Two passes, as the job makes them: up to the fourth moment, then the rest; the first packs
    // its chunks here, the second on the server's worker thread (packer.ts).
    const layout = { chunkEdits: 64, chunkSpanMs: 60_000, checkpointEvery: 200 };
    const firstPass = await compactSession(repo, sessionId, new Date((moments[3]?.at ?? 0) + 1), { layout });
    expect(firstPass).toBeGreaterThan(0);
    expect(firstPass).toBeLessThan(rows);
    expect(await back(host, sessionId, moments)).toEqual(before);
    const packer = createChunkPacker(createLogger("silent"));
    const secondPass = compactSession(repo, sessionId, new Date(Date.now() + 1000), {
      layout,
      pack: packer.pack,
    });
    expect(await secondPass.finally(() => packer.close())).toBe(rows - firstPass);
    expect(await count("doc_history", sessionId)).toBe(0);
    expect(await count("doc_history_chunks", sessionId)).toBeGreaterThanOrEqual(Math.ceil(rows / 64));
    // The walk's checkpoint, and more stored by the compaction as updates were folded.
    expect(await count("doc_history_checkpoints", sessionId)).toBeGreaterThan(2);
    expect(await back(host, sessionId, moments)).toEqual(before);
    // The moment of every stored tick, inside chunks: each seek shows what it showed before.
    for (const [at, frame] of ticks) expect(await seek(host, sessionId, at)).toEqual(frame);
    const timelineAfter = await host.request("getReplayTimeline", { sessionId });
    if (!timelineBefore.ok || !timelineAfter.ok) throw new Error("no timeline");
    expect(timelineAfter.data.edits).toBe(rows);
    expect(timelineAfter.data.start).toBe(timelineBefore.data.start);
    expect(timelineAfter.data.end).toBe(timelineBefore.data.end);
    expect(timelineAfter.data.activity.reduce((a, b) => a + b, 0)).toBe(rows);
    expect(new Set(timelineAfter.data.authors)).toEqual(new Set(timelineBefore.data.authors));
    // Compacting again finds nothing, and a second node's pass over the same rows stores nothing twice.
    expect(await compactSession(repo, sessionId, new Date(Date.now() + 1000), { layout })).toBe(0);
  });

  it("lets only participants replay: a socket that never joined, or joined another session, is refused", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "private");
    typeText(host, "\n// secret");
    await settled(sessionId, host.text());
    const notJoined = { ok: false, error: { code: "not_joined", message: "Join the session first" } };
    const stranger = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    await new Promise((resolve) => stranger.once("connect", () => resolve(null)));
    const other = await editors.hostAndGuest(server.api, "other");
    for (const socket of [stranger, other.host.socket, other.guest.socket]) {
      expect(await emitAck(socket, "getReplayTimeline", { sessionId })).toEqual(notJoined);
      expect(await emitAck(socket, "seekReplay", { sessionId, at: Date.now() })).toEqual(notJoined);
      expect(await emitAck(socket, "restoreVersion", { sessionId, at: 0 })).toEqual(notJoined);
    }
    expect(await host.request("seekReplay", { sessionId, at: -1 })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(await emitAck(host.socket, "seekReplay", { sessionId, at: "soon" })).toMatchObject({
      ok: false,
      error: { code: "invalid_payload" },
    });
    expect(host.text()).toContain("// secret");
    stranger.disconnect();
  });

  it("restores a moment for the host as a new edit everyone receives, and refuses anyone else and an ended session", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "restore");
    typeText(host, "\n// kept");
    await settled(sessionId, host.text());
    const kept = { at: await moment(), text: host.text() };
    await waitFor(() => guest.text() === kept.text, 5000, "the guest's copy");
    typeText(guest, "\n// to be undone");
    expect(
      (await host.request("createFile", { sessionId, path: "extra.js", kind: "file", content: "x" })).ok,
    ).toBe(true);
    await settled(sessionId, guest.text());
    await typeLine(host, sessionId, "help");
    expect((await guest.request("createPR", { sessionId, title: "Replay PR" })).ok).toBe(true);
    const later = { at: await moment(), text: guest.text() };
    const rowsBefore = await count("doc_history", sessionId);

    // An editor's forged restore, and a viewer's, are refused and change nothing.
    const forbidden = { ok: false, error: { code: "forbidden" } };
    expect(await guest.request("restoreVersion", { sessionId, at: kept.at })).toMatchObject(forbidden);
    const viewer = await editors.open();
    const viewerJoin = await viewer.join(sessionId);
    if (!viewerJoin.ok) throw new Error(viewerJoin.error.message);
    const demoted = await host.request("setRole", {
      sessionId,
      participantId: viewerJoin.data.self.id,
      role: "viewer",
    });
    expect(demoted.ok).toBe(true);
    expect(await viewer.request("restoreVersion", { sessionId, at: kept.at })).toMatchObject(forbidden);
    // A viewer may still replay.
    expect(mainOf(await seek(viewer, sessionId, kept.at))?.content).toBe(kept.text);
    await sleep(300);
    expect(guest.text()).toBe(later.text);
    expect(await count("doc_history", sessionId)).toBe(rowsBefore);

    const restored = await host.request("restoreVersion", { sessionId, at: kept.at });
    expect(restored).toEqual({ ok: true, data: { refused: [] } });
    await waitFor(
      () => guest.text() === kept.text && !guest.text("extra.js"),
      10_000,
      "the restore on the guest",
    );
    await settled(sessionId, kept.text);
    // A new edit, by the host: history grew and still shows the undone moment as it was.
    expect(await count("doc_history", sessionId)).toBeGreaterThan(rowsBefore);
    const [restoreRow] = await server.db.query<{ author: string | null }>(
      "SELECT author FROM doc_history WHERE session_id = $1 ORDER BY id DESC LIMIT 1",
      [sessionId],
    );
    expect(restoreRow?.author).toBe(hostUser.user.id);
    const beforeRestore = await seek(host, sessionId, later.at);
    expect(mainOf(beforeRestore)?.content).toBe(later.text);
    expect(beforeRestore.files.map((f) => f.path)).toContain("extra.js");

    // The timeline (a guest's, here) lists the terminal's entries and the PR among its events, in order.
    const timeline = await guest.request("getReplayTimeline", { sessionId });
    if (!timeline.ok) throw new Error(timeline.error.message);
    const events = timeline.data.events.map((e) => [e.kind, e.text]);
    expect(events).toContainEqual(["input", "$ help"]);
    expect(events).toContainEqual(["pr-created", 'Anonymous opened "Replay PR"']);
    const times = timeline.data.events.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // Ended: an archive replays, and restores are refused like any edit.
    expect((await host.request("sessionEnding", { sessionId })).ok).toBe(true);
    const rowsEnded = await count("doc_history", sessionId);
    expect(await host.request("restoreVersion", { sessionId, at: kept.at - 1 })).toEqual({
      ok: false,
      error: { code: "session_ended", message: SESSION_ENDED_MESSAGE },
    });
    expect(mainOf(await seek(guest, sessionId, Date.now()))?.content).toBe(kept.text);
    expect(await count("doc_history", sessionId)).toBe(rowsEnded);
  });
});
