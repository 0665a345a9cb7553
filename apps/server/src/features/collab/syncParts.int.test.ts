import {
  decodeLaneFrame,
  decodeSyncMessage,
  encodeLaneFrame,
  encodeUpdate,
  fileIdAt,
  LANE_SYNC,
  type LaneRefusal,
  laneUrl,
  MAX_WHOLE_SYNC_BYTES,
  SYNC_STEP1,
  SYNC_UPDATE,
  splitSyncMessage,
  toWire,
} from "@ensemble/collab";
import { type Joined, PROTOCOL_VERSION, WORKSPACE_LIMITS } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, emitAck, rawLane, type TestEditor, waitFor } from "../../../test/collabClient";
import {
  buildSession,
  DATABASES,
  socketClient,
  startTestServer,
  type TestServer,
} from "../../../test/harness";
import { MAX_ASSEMBLING_BYTES } from "./syncParts";

/** An update from `editor`'s state that inserts `text` at the start of its main file, as a sync message. */
function insertion(editor: TestEditor, text: string): Uint8Array {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(editor.doc));
  const before = Y.encodeStateVector(doc);
  doc.getText(fileIdAt(doc, "src/main.js") ?? "missing").insert(0, text);
  return encodeUpdate(Y.encodeStateAsUpdate(doc, before));
}

/** Parts of at most 300 bytes: the server takes parts of any size under the cap. */
const small = (message: Uint8Array) => splitSyncMessage(message, 300);

/** The first part of a message of `bytes` (its content never follows). */
const firstPartOf = (bytes: number) =>
  splitSyncMessage(new Uint8Array(bytes), MAX_WHOLE_SYNC_BYTES)[0] as Uint8Array;

/**
 * Forged part streams over the lane and socket.io: each is refused whole with nothing
 * changed and nothing held, and the connection's later messages still apply.
 */
describe("sync messages in parts", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer(DATABASES[0] ?? "embedded");
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });
  const assembling = () => server.app.collab.assembling.bytes;
  const counts = () => ({ ...server.app.collab.rooms.counts });

  /** A new session with an editor in it, synced. */
  async function session() {
    const { host, sessionId } = await buildSession(server.api, "forged parts");
    const editor = await editors.open(host.token);
    await editor.join(sessionId);
    await waitFor(() => editor.client.synced);
    return { sessionId, editor };
  }

  /** A joined connection with no Yjs client of its own: raw socket.io and a raw lane. */
  async function forger(sessionId: string) {
    const socket = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION });
    sockets.push(socket);
    const joined = await emitAck<Joined>(socket, "joinSession", sessionId);
    if (!joined.ok) throw new Error(joined.error.message);
    const lane = rawLane(laneUrl(server.url, joined.data.laneTicket));
    await lane.opened;
    return {
      socket,
      lane,
      /** Sends sync messages over the lane, in one frame. */
      send: (...messages: Uint8Array[]) =>
        lane.ws.send(encodeLaneFrame(messages.map((m) => [LANE_SYNC, m] as const))),
      refusals: () =>
        lane.frames
          .filter((f): f is string => typeof f === "string")
          .map((f) => JSON.parse(f) as LaneRefusal),
    };
  }

  /** A session's editor and a forger in it. */
  async function setup() {
    const { sessionId, editor } = await session();
    return { editor, ...(await forger(sessionId)) };
  }

  it("joins consecutive parts into the update they carry", async () => {
    const { editor, send, refusals } = await setup();
    send(...small(insertion(editor, "joined ".repeat(300))));
    await waitFor(() => editor.text().startsWith("joined joined"), 5000, "the joined update");
    expect(refusals()).toEqual([]);
    expect(assembling()).toBe(0);
  });

  it("refuses a whole message over 512 KiB on the lane, as socket.io's schema does", async () => {
    const { editor, send, refusals } = await setup();
    const before = editor.text();
    const oversized = new Uint8Array(MAX_WHOLE_SYNC_BYTES + 1);
    oversized[0] = SYNC_UPDATE;
    send(oversized);
    await waitFor(() => refusals().length === 1, 5000, "the refusal");
    expect(refusals()).toEqual([expect.objectContaining({ event: "yjsSync", code: "invalid_payload" })]);
    send(insertion(editor, "still here\n"));
    await waitFor(() => editor.text() === `still here\n${before}`, 5000, "the next update");
  });

  it("refuses a part out of order, and takes the connection's next update", async () => {
    const { editor, send, refusals } = await setup();
    const before = editor.text();
    const [p0, p1, p2, ...rest] = small(insertion(editor, "disordered ".repeat(300)));
    const refused = counts().refused;
    send(p0 as Uint8Array, p2 as Uint8Array, p1 as Uint8Array, ...rest);
    send(...small(insertion(editor, "later ".repeat(300))));
    await waitFor(() => editor.text().startsWith("later later"), 5000, "the later update");
    expect(refusals()).toEqual([expect.objectContaining({ event: "yjsSync", code: "invalid_message" })]);
    expect(editor.text()).toBe(`${"later ".repeat(300)}${before}`);
    expect(assembling()).toBe(0);
    // Counted once, as a refused update (the metrics' updates_total{outcome="refused"}).
    expect(counts().refused).toBe(refused + 1);
  });

  it("refuses a message over the document's cap from its first part, holding nothing", async () => {
    const { editor, send, refusals } = await setup();
    const before = editor.text();
    send(firstPartOf(WORKSPACE_LIMITS.maxDocumentBytes + 1));
    await waitFor(() => refusals().length === 1, 5000, "the refusal");
    expect(refusals()).toEqual([expect.objectContaining({ code: "update_refused" })]);
    expect(assembling()).toBe(0);
    send(insertion(editor, "after the cap\n"));
    await waitFor(() => editor.text() === `after the cap\n${before}`, 5000, "the next update");
  });

  it("refuses a stream interrupted by a whole update, with that update", async () => {
    const { editor, send, refusals } = await setup();
    const before = editor.text();
    const [p0, p1, ...rest] = small(insertion(editor, "interrupted ".repeat(300)));
    send(p0 as Uint8Array, p1 as Uint8Array, insertion(editor, "between\n"), ...rest);
    send(insertion(editor, "next\n"));
    await waitFor(() => editor.text().startsWith("next\n"), 5000, "the next update");
    expect(refusals()).toEqual([
      expect.objectContaining({
        code: "invalid_message",
        message: expect.stringMatching(/middle of a part stream/),
      }),
    ]);
    expect(editor.text()).toBe(`next\n${before}`);
  });

  it("frees a stream abandoned by a closed lane or a disconnected socket", async () => {
    const { lane, socket, send } = await setup();
    send(firstPartOf(5_000_000));
    await waitFor(() => assembling() === 5_000_000, 5000, "the held stream");
    lane.ws.close();
    await waitFor(() => assembling() === 0, 5000, "the freed stream");
    // Over socket.io now that the lane is gone.
    socket.emit("yjsSync", toWire(firstPartOf(3_000_000)));
    await waitFor(() => assembling() === 3_000_000, 5000, "the held stream");
    socket.disconnect();
    await waitFor(() => assembling() === 0, 5000, "the freed stream");
  });

  it("refuses a stream past the global bound for now, and asks for it again", async () => {
    const { sessionId, editor } = await session();
    const whole = WORKSPACE_LIMITS.maxDocumentBytes;
    const head = firstPartOf(whole);
    const holders: Awaited<ReturnType<typeof forger>>[] = [];
    for (let i = 0; i < Math.floor(MAX_ASSEMBLING_BYTES / whole); i++) holders.push(await forger(sessionId));
    for (const holder of holders) holder.send(head);
    await waitFor(() => assembling() === holders.length * whole, 5000, "the held streams");

    const late = await forger(sessionId);
    const { deferred, refused } = counts();
    late.send(head);
    await waitFor(() => late.refusals().length === 1, 5000, "the refusal");
    expect(late.refusals()).toEqual([expect.objectContaining({ code: "rate_limited" })]);
    expect(assembling()).toBe(holders.length * whole);
    expect(counts()).toMatchObject({ deferred: deferred + 1, refused });
    // A second later the server asks for what it lacks: a client answers with its step 2 again.
    const stepOnes = () =>
      late.lane.frames
        .flatMap((f) => (typeof f === "string" ? [] : decodeLaneFrame(f)))
        .filter(([kind, m]) => kind === LANE_SYNC && decodeSyncMessage(m).type === SYNC_STEP1);
    await waitFor(() => stepOnes().length > 0, 5000, "the step 1");

    for (const holder of holders) holder.lane.ws.close();
    await waitFor(() => assembling() === 0, 5000, "the freed streams");
    const before = editor.text();
    late.send(...small(insertion(editor, "in time ".repeat(200))));
    await waitFor(() => editor.text() === `${"in time ".repeat(200)}${before}`, 5000, "the late stream");
  });
});
