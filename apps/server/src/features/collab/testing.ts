import { CollabClient, fileIdAt } from "@ensemble/collab";
import { LANGUAGE_MAIN_FILES } from "@ensemble/protocol";
import { vi } from "vitest";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { Room, type RoomBroadcast, type RoomConnection } from "./room";
import { Workspace } from "./workspace";

// What the room's tests share: clients over in-memory pipes and a room loaded from a stored
// history. A test file that uses `isBuilt` or `serverEncodes` mocks yjs's functions (see room.test.ts).

export const MAIN = LANGUAGE_MAIN_FILES.javascript;

/** A client over an in-memory pipe: messages wait in queues until `deliver`. */
export class PipeClient {
  readonly doc = new Y.Doc();
  readonly toServer: Uint8Array[] = [];
  readonly toClient: Uint8Array[] = [];
  /** Every sync message it sent and was sent, in order. */
  readonly sent: Uint8Array[] = [];
  readonly received: Uint8Array[] = [];
  readonly client = new CollabClient(this.doc, new Awareness(this.doc), {
    sendSync: (m) => {
      this.sent.push(m);
      this.toServer.push(m);
    },
    sendAwareness: () => {},
  });
  readonly connection: RoomConnection;

  constructor(readonly name: string) {
    this.connection = {
      id: name,
      user: { id: name, name },
      sendSync: (m) => {
        this.received.push(m);
        this.toClient.push(m);
      },
      sendAwareness: () => {},
    };
  }

  get file(): Y.Text {
    return this.doc.getText(fileIdAt(this.doc, MAIN) ?? "missing");
  }
}

/** A session typed for a while (inserts and deletes), stored as our compaction stores it. */
export function storedHistory() {
  const doc = new Y.Doc();
  new Workspace(doc).ensureInitialised();
  const text = doc.getText(fileIdAt(doc, MAIN) ?? "missing");
  for (let i = 0; i < 300; i++) {
    text.insert((i * 7) % (text.length + 1), `w${i} `);
    if (i % 3 === 0) text.delete(i % text.length, 2);
  }
  return {
    doc,
    snapshot: Y.encodeStateAsUpdate(doc),
    stateVector: Y.encodeStateVector(doc),
    summary: Y.encodeSnapshot(Y.snapshot(doc)),
    text: text.toString(),
  };
}

export function setup(stored = storedHistory(), tail: Uint8Array[] = []) {
  const clients: PipeClient[] = [];
  const logged: Uint8Array[] = [];
  const broadcast: RoomBroadcast = {
    sync: (m, except) => {
      for (const c of clients) if (c.connection !== except) c.toClient.push(m);
    },
    awareness: () => {},
  };
  let gate: Promise<void> | undefined;
  const room = new Room(
    "s",
    broadcast,
    async (u) => {
      logged.push(u);
      await gate;
    },
    {
      snapshot: stored.snapshot,
      stateVector: stored.stateVector,
      summary: stored.summary,
      updates: tail,
    },
  );
  /** Delivers every queued message both ways until all queues are empty. */
  const deliver = () => {
    while (clients.some((c) => c.toServer.length + c.toClient.length > 0)) {
      for (const c of clients) {
        for (let m = c.toServer.shift(); m; m = c.toServer.shift()) room.receiveSync(c.connection, m);
        for (let m = c.toClient.shift(); m; m = c.toClient.shift()) c.client.receiveSync(m);
      }
    }
  };
  const connect = (name: string, doc?: Y.Doc) => {
    const c = new PipeClient(name);
    if (doc) Y.applyUpdate(c.doc, Y.encodeStateAsUpdate(doc));
    clients.push(c);
    room.join(c.connection);
    c.client.connected();
    deliver();
    return c;
  };
  /** Whether the server built its document from the stored snapshot. */
  const isBuilt = () => vi.mocked(Y.applyUpdate).mock.calls.some(([, update]) => update === stored.snapshot);
  /** How often the server (not a client) encoded its whole document. */
  const serverEncodes = () =>
    vi.mocked(Y.encodeStateAsUpdate).mock.calls.filter(([doc]) => !clients.some((c) => c.doc === doc)).length;
  // What making the history cost is not the room's.
  vi.clearAllMocks();
  /** Stores answer only once the returned release is called (a slow database). */
  const holdStores = () => {
    let release = () => {};
    gate = new Promise((done) => {
      release = done;
    });
    return release;
  };
  return { room, stored, storedUpdates: logged, connect, deliver, isBuilt, serverEncodes, holdStores };
}
