import { filesMap, REMOTE_ORIGIN } from "@ensemble/collab";
import type { Ack } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import type { SessionLink } from "../../lib/sessionLink";
import type { Deletion } from "./pendingFiles";
import { RESTORE_ORIGIN } from "./undoDelete";
import { WorkspaceChannel } from "./workspaceChannel";

const SESSION = "11111111-1111-4111-8111-111111111111";
const ID = "f-util000000000000";
const saved = "export const x = 1;\n".repeat(10);

type Answer = Ack<unknown> | "timeout";

/**
 * The server's side of the file events over a Y.Doc of its own, as `Workspace` changes it
 * (a delete empties the text, a restore clears it and lists the file), each change sent to
 * the browser's document before the answer unless `isQuiet` (a browser whose sync is off).
 */
function fakeServer(browser: Y.Doc) {
  const doc = new Y.Doc();
  const requests: { event: string; payload: Record<string, unknown> }[] = [];
  const state = {
    isQuiet: false,
    answers: [] as Answer[],
    /** Set to lose the next answer: the change is made, then this runs and the request times out. */
    lostAnswer: undefined as (() => void) | undefined,
  };
  const sync = (from: Y.Doc, to: Y.Doc) =>
    Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)), REMOTE_ORIGIN);
  const link = {
    sessionId: SESSION,
    async request(event: string, payload: Record<string, unknown>): Promise<Ack<unknown>> {
      requests.push({ event, payload });
      const answer = state.answers.shift() ?? { ok: true, data: { path: payload.path } };
      if (answer === "timeout") return { ok: false, error: { code: "timeout", message: "no answer" } };
      if (!answer.ok) return answer;
      doc.transact(() => {
        const text = doc.getText(ID);
        text.delete(0, text.length);
        if (event === "deletePath") filesMap(doc).delete(ID);
        else filesMap(doc).set(ID, "lib/util.js");
      });
      if (!state.isQuiet) sync(doc, browser);
      const lost = state.lostAnswer;
      state.lostAnswer = undefined;
      if (lost) {
        lost();
        return { ok: false, error: { code: "timeout", message: "socket has been disconnected" } };
      }
      return answer;
    },
  };
  doc.transact(() => {
    filesMap(doc).set(ID, "lib/util.js");
    doc.getText(ID).insert(0, saved);
  });
  sync(doc, browser);
  return {
    doc,
    requests,
    state,
    // The fake answers the file events WorkspaceChannel sends; SessionLink's full type is wider.
    link: link as unknown as SessionLink,
    /** Our step 2 and the server's, as the sync exchanges them. */
    syncBoth: () => {
      sync(browser, doc);
      sync(doc, browser);
    },
  };
}

/** A live channel whose document has `lib/util.js`, and the text updates it writes (by origin). */
async function liveChannel() {
  const doc = new Y.Doc();
  const server = fakeServer(doc);
  const channel = new WorkspaceChannel(server.link, doc);
  // An empty queue replayed: the channel is live.
  expect(await channel.replay(() => true)).toBe(true);
  const restored: unknown[] = [];
  doc.on("update", (_update: Uint8Array, origin: unknown) => {
    if (origin === RESTORE_ORIGIN) restored.push(origin);
  });
  return { doc, server, channel, restored };
}

async function deleteLib(channel: WorkspaceChannel): Promise<Deletion> {
  const deleted = await channel.deletePath({ path: "lib" });
  if (!deleted.ok) throw new Error(deleted.error.message);
  return deleted.data;
}

describe("WorkspaceChannel.undoDelete", () => {
  it("online: asks for the restore without the text, then writes the text back as our edit", async () => {
    const { doc, server, channel } = await liveChannel();
    const deletion = await deleteLib(channel);
    expect(deletion.files).toEqual([{ id: ID, path: "lib/util.js", content: saved }]);
    expect(doc.getText(ID).toString()).toBe("");

    expect(await channel.undoDelete(deletion)).toEqual({ ok: true, data: "lib" });
    expect(server.requests.at(-1)).toEqual({
      event: "restorePath",
      payload: {
        sessionId: SESSION,
        path: "lib",
        files: [{ id: ID, path: "lib/util.js", bytes: saved.length }],
        folders: [],
      },
    });
    expect(doc.getText(ID).toString()).toBe(saved);
    server.syncBoth();
    expect(server.doc.getText(ID).toString()).toBe(saved);
  });

  it("online: a refused restore writes nothing", async () => {
    const { doc, server, channel, restored } = await liveChannel();
    const deletion = await deleteLib(channel);
    server.state.answers.push({ ok: false, error: { code: "conflict", message: '"lib" already exists.' } });
    expect(await channel.undoDelete(deletion)).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(restored).toEqual([]);
    expect(doc.getText(ID).toString()).toBe("");
  });

  it("offline: queued with its text, written back once the replayed restore is accepted", async () => {
    const { doc, server, channel, restored } = await liveChannel();
    const deletion = await deleteLib(channel);
    channel.disconnected();
    expect(await channel.undoDelete(deletion)).toEqual({ ok: true, data: "lib" });
    expect(channel.listing().files).toEqual([{ id: ID, path: "lib/util.js" }]);
    expect(restored).toEqual([]);

    // The first answer is lost: nothing written, the restore stays queued and goes again.
    server.state.isQuiet = true;
    server.state.answers.push("timeout");
    expect(await channel.replay(() => true)).toBe(false);
    expect(restored).toEqual([]);
    expect(channel.hasPending).toBe(true);
    expect(await channel.replay(() => true)).toBe(true);
    expect(server.requests.filter((r) => r.event === "restorePath")).toHaveLength(2);
    expect(server.requests.at(-1)?.payload).not.toHaveProperty("files.0.content");
    // Written before our document syncs: the server's clearing reaches it after, and spares it.
    expect(restored).toHaveLength(1);
    expect(doc.getText(ID).toString()).toBe(saved);
    server.syncBoth();
    expect(server.doc.getText(ID).toString()).toBe(saved);
    expect(doc.getText(ID).toString()).toBe(saved);
  });

  it("online: a connection lost before the answer queues the restore, asked again on the next join", async () => {
    const { doc, server, channel, restored } = await liveChannel();
    const deletion = await deleteLib(channel);
    // The server restores the files (empty), then the connection goes with its answer.
    server.state.answers.push({ ok: true, data: { path: "lib" } });
    server.state.lostAnswer = () => channel.disconnected();
    expect(await channel.undoDelete(deletion)).toEqual({ ok: true, data: "lib" });
    expect(restored).toEqual([]);
    expect(channel.hasPending).toBe(true);
    expect(doc.getText(ID).toString()).toBe("");
    // The next join's replay: the server answers as it did (it shows the restore already).
    expect(await channel.replay(() => true)).toBe(true);
    expect(server.requests.filter((r) => r.event === "restorePath")).toHaveLength(2);
    expect(doc.getText(ID).toString()).toBe(saved);
    server.syncBoth();
    expect(server.doc.getText(ID).toString()).toBe(saved);
  });

  it("offline: a replayed restore the server refuses writes nothing and leaves the queue", async () => {
    const { doc, server, channel, restored } = await liveChannel();
    const deletion = await deleteLib(channel);
    channel.disconnected();
    await channel.undoDelete(deletion);
    server.state.answers.push({ ok: false, error: { code: "conflict", message: '"lib" already exists.' } });
    expect(await channel.replay(() => true)).toBe(true);
    expect(channel.hasPending).toBe(false);
    expect(restored).toEqual([]);
    expect(doc.getText(ID).toString()).toBe("");
  });
});
