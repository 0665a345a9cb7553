import { CollabClient, fileIdAt } from "@ensemble/collab";
import { LANGUAGE_MAIN_FILES } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { DATABASES, useTestDb } from "../../../test/harness";
import type { Db } from "../../db/index";
import { createLogger } from "../../logger";
import { COMPACTION } from "./docWriter";
import { createDocRepo } from "./repo";
import type { Room, RoomBroadcast, RoomConnection } from "./room";
import { RoomRegistry } from "./rooms";

const MAIN = LANGUAGE_MAIN_FILES.javascript;

/** A node: its own registry and repo (so its own writer id), and one typist connected to it. */
async function startNode(db: Db, sessionId: string, name: string) {
  const toServer: Uint8Array[] = [];
  const doc = new Y.Doc();
  const client = new CollabClient(doc, new Awareness(doc), {
    sendSync: (m) => toServer.push(m),
    sendAwareness: () => {},
  });
  const connection: RoomConnection = {
    id: name,
    user: { id: name, name },
    sendSync: (m) => client.receiveSync(m),
    sendAwareness: () => {},
  };
  const fanOut: RoomBroadcast = {
    sync: (m, except) => {
      if (except !== connection) client.receiveSync(m);
    },
    awareness: () => {},
  };
  // Compactions every few updates, so the two nodes' compactions interleave with the typing.
  const rooms = new RoomRegistry(createDocRepo(db), () => fanOut, createLogger("silent"), {
    ...COMPACTION,
    every: 4,
    idleMs: 60_000,
  });
  const room: Room = await rooms.open(sessionId);
  const deliver = () => {
    for (let m = toServer.shift(); m; m = toServer.shift()) room.receiveSync(connection, m);
  };
  room.join(connection);
  client.connected();
  deliver();
  const text = () => doc.getText(fileIdAt(doc, MAIN) ?? "missing");
  return {
    rooms,
    /** This node's writes and compactions so far have landed. */
    settled: () => rooms.settled(sessionId),
    text: () => text().toString(),
    type(token: string) {
      text().insert(0, token);
      deliver();
    },
    close: () => client.destroy(),
  };
}

describe.each(DATABASES)("two nodes writing one session on %s", (kind) => {
  const testDb = useTestDb(kind);

  it("loses no update when both compact in turn: the stored document holds every keystroke once", async () => {
    const db = testDb();
    const sessionId = `two-${kind}-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'two writers')", [sessionId]);
    // A loads (and stores the new document) first, so both nodes share its files.
    const a = await startNode(db, sessionId, "a");
    const b = await startNode(db, sessionId, "b");
    const typed: string[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [node, name] of [
        [a, "a"],
        [b, "b"],
      ] as const) {
        for (let i = 0; i < 5; i++) {
          const token = `<${name}${round}.${i}>`;
          typed.push(token);
          node.type(token);
        }
        // Lets this node's writes and compaction land before the other types: the two
        // compactions then each find rows and a snapshot the other wrote.
        await node.settled();
      }
    }
    // B unloads first; A's last compaction (it has a keystroke to fold) then finds B's
    // snapshot, folds it in and sends what it lacked to its typist.
    await b.rooms.closeAll();
    typed.push("<a-last>");
    a.type("<a-last>");
    await a.rooms.closeAll();
    for (const token of typed) expect(a.text()).toContain(token);

    const fresh = new RoomRegistry(
      createDocRepo(db),
      () => ({ sync: () => {}, awareness: () => {} }),
      createLogger("silent"),
    );
    const room = await fresh.open(sessionId);
    const stored = room.text(MAIN);
    for (const token of typed) expect(stored.split(token)).toHaveLength(2);
    expect(stored).toBe(a.text());
    await fresh.closeAll();
    a.close();
    b.close();
  });

  it("folds again when another writer's snapshot lands between its read and its write", async () => {
    const db = testDb();
    const sessionId = `race-${kind}-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'race')", [sessionId]);
    const snapshotOf = (doc: Y.Doc) => ({
      state: Y.encodeStateAsUpdate(doc),
      stateVector: Y.encodeStateVector(doc),
      summary: Y.encodeSnapshot(Y.snapshot(doc)),
    });
    const docA = new Y.Doc();
    const docB = new Y.Doc();
    const b = createDocRepo(db, "writer-b");
    let writesByA = 0;
    // B compacts after A's first read, before A's first write.
    const a = createDocRepo(
      {
        ...db,
        query: async (sql, params) => {
          if (sql.includes("INSERT INTO doc_snapshots") && writesByA++ === 0) {
            await b.compact(sessionId, (theirs) => {
              for (const update of theirs) Y.applyUpdate(docB, update);
              return snapshotOf(docB);
            });
          }
          return db.query(sql, params);
        },
      },
      "writer-a",
    );
    const type = async (doc: Y.Doc, writer: typeof a, token: string) => {
      let update: Uint8Array | undefined;
      doc.once("update", (u: Uint8Array) => {
        update = u;
      });
      doc.getText("t").insert(0, token);
      if (update) await writer.appendMany([{ sessionId, update }]);
    };
    await type(docA, a, "<a>");
    await type(docB, b, "<b>");
    const foldedByA: number[] = [];
    const generation = await a.compact(sessionId, (foreign) => {
      foldedByA.push(foreign.length);
      for (const update of foreign) Y.applyUpdate(docA, update);
      return snapshotOf(docA);
    });
    // First fold: B's row. Second: B's snapshot (which holds A's row too, read by B).
    expect(foldedByA).toEqual([1, 1]);
    expect(generation).toBe(2);
    const stored = await createDocRepo(db).load(sessionId);
    expect(stored.updates).toHaveLength(0);
    const check = new Y.Doc();
    if (stored.snapshot) Y.applyUpdate(check, stored.snapshot);
    expect(check.getText("t").toString()).toMatch(/^(<a><b>|<b><a>)$/);
  });
});
