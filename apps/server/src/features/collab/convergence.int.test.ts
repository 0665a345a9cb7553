import { CollabClient, fileIdAt } from "@ensemble/collab";
import { LANGUAGE_MAIN_FILES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { openTestDb } from "../../../test/harness";
import { seededRandom as random } from "../../../test/random";
import type { Db } from "../../db/index";
import { createLogger } from "../../logger";
import { COMPACTION } from "./docWriter";
import { createDocRepo } from "./repo";
import type { Room, RoomBroadcast, RoomConnection } from "./room";
import { RoomRegistry } from "./rooms";

type Message = { kind: "sync" | "awareness"; data: Uint8Array };

/** One simulated browser: a CollabClient whose messages wait in queues until delivered. */
class SimClient {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  readonly toServer: Message[] = [];
  readonly toClient: Message[] = [];
  readonly client: CollabClient;
  readonly connection: RoomConnection;
  isOnline = false;

  constructor(readonly index: number) {
    this.client = new CollabClient(this.doc, this.awareness, {
      sendSync: (data) => this.toServer.push({ kind: "sync", data }),
      sendAwareness: (data) => this.toServer.push({ kind: "awareness", data }),
    });
    this.awareness.setLocalState({ cursor: index });
    this.connection = {
      id: `c${index}`,
      user: { id: `u${index}`, name: `User ${index}` },
      sendSync: (data) => this.isOnline && this.toClient.push({ kind: "sync", data }),
      sendAwareness: (data) => this.isOnline && this.toClient.push({ kind: "awareness", data }),
    };
  }

  /** The main file, once the first sync brought the workspace. */
  get file(): Y.Text {
    return this.doc.getText(fileIdAt(this.doc, LANGUAGE_MAIN_FILES.javascript) ?? "missing");
  }

  get text() {
    return this.file.toString();
  }
}

/** Runs a seeded session; returns the clients, the room and a reload of what was stored. */
async function simulate(db: Db, seed: number, clientCount: number, opsPerClient: number) {
  const rand = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)] as T;
  const sessionId = `conv-${seed}-${Date.now()}`;
  await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'convergence')", [sessionId]);
  const clients = Array.from({ length: clientCount }, (_, i) => new SimClient(i));
  const broadcast = (kind: Message["kind"]) => (data: Uint8Array, except: RoomConnection | undefined) => {
    for (const c of clients) if (c.isOnline && c.connection !== except) c.toClient.push({ kind, data });
  };
  const fanOut: RoomBroadcast = { sync: broadcast("sync"), awareness: broadcast("awareness") };
  const repo = createDocRepo(db);
  const logger = createLogger("silent");
  const rooms = new RoomRegistry(repo, () => fanOut, logger, { ...COMPACTION, every: 50, idleMs: 60_000 });
  const room: Room = await rooms.open(sessionId);

  const connect = (c: SimClient) => {
    c.isOnline = true;
    room.join(c.connection);
    c.client.connected();
  };
  const disconnect = (c: SimClient) => {
    c.isOnline = false;
    c.toServer.length = 0;
    c.toClient.length = 0;
    room.leave(c.connection);
    c.client.disconnected();
  };
  // Delivers one queued message, often not the oldest: reordering within a connection.
  const deliverOne = (c: SimClient, inOrder: boolean) => {
    const queue = rand() < 0.5 ? c.toServer : c.toClient;
    if (queue.length === 0) return;
    const index = inOrder ? 0 : Math.floor(rand() * Math.min(queue.length, 4));
    const [message] = queue.splice(index, 1);
    if (!message || !c.isOnline) return;
    if (queue === c.toServer) {
      if (message.kind === "sync") room.receiveSync(c.connection, message.data);
      else room.receiveAwareness(c.connection, message.data);
    } else if (message.kind === "sync") c.client.receiveSync(message.data);
    else c.client.receiveAwareness(message.data);
  };

  // In-order delivery until every queue is empty.
  const drain = () => {
    while (clients.some((c) => c.toServer.length + c.toClient.length > 0)) {
      for (const c of clients) while (c.toServer.length + c.toClient.length > 0) deliverOne(c, true);
    }
  };
  for (const c of clients) connect(c);
  drain();
  for (let step = 0; step < clientCount * opsPerClient; step++) {
    const c = pick(clients);
    const text = c.file;
    const roll = rand();
    if (roll < 0.6 || text.length < 5) {
      text.insert(Math.floor(rand() * (text.length + 1)), pick(["a", "bc", "def", "\n", "xyz12", "é", "🙂"]));
    } else if (roll < 0.9) {
      const at = Math.floor(rand() * text.length);
      text.delete(at, Math.min(1 + Math.floor(rand() * 4), text.length - at));
    } else if (c.isOnline && rand() < 0.3) {
      disconnect(c);
    } else if (!c.isOnline) {
      connect(c);
    }
    for (let d = Math.floor(rand() * 4); d > 0; d--) deliverOne(pick(clients), false);
  }

  for (const c of clients) if (!c.isOnline) connect(c);
  drain();
  for (const c of clients) room.leave(c.connection);
  await rooms.releaseIfEmpty(sessionId);

  const stored = await repo.load(sessionId);
  const reloaded = new Y.Doc();
  for (const update of stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates) {
    Y.applyUpdate(reloaded, update);
  }
  const main = LANGUAGE_MAIN_FILES.javascript;
  const storedText = reloaded.getText(fileIdAt(reloaded, main) ?? "missing").toString();
  return { clients, roomText: room.text(main), storedText };
}

describe("convergence under random delays, reorders and disconnects", () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb("embedded"));
  });
  afterAll(() => drop());

  for (const seed of [1, 7, 42, 2024]) {
    it(`seed ${seed}: 6 clients, 3,000 random edits, all texts equal the stored one`, async () => {
      const { clients, roomText, storedText } = await simulate(db, seed, 6, 500);
      const texts = new Set(clients.map((c) => c.text));
      expect(texts.size).toBe(1);
      expect(clients[0]?.text).toBe(roomText);
      expect(storedText).toBe(roomText);
      // The run must have produced real content, not converged on empty text.
      expect(roomText.length).toBeGreaterThan(100);
    });
  }
});
