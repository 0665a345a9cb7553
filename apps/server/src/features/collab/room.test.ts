import {
  encodeUpdate,
  fileIdAt,
  isEmptyUpdate,
  readSyncMessage,
  SYNC_STEP1,
  SYNC_STEP2,
} from "@ensemble/collab";
import { WORKSPACE_MESSAGES } from "@ensemble/protocol";
import * as encoding from "lib0/encoding";
import { describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { DomainError } from "../../errors";
import { encodeEntries, MAX_AWARENESS_STATE_CHARS } from "./awareness";
import { Room, type RoomBroadcast, type RoomConnection } from "./room";
import { MAIN, PipeClient, setup, storedHistory } from "./testing";

// Counted, not changed: which Yjs work the server does for a client is what these tests check.
vi.mock("yjs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("yjs")>();
  return {
    ...actual,
    applyUpdate: vi.fn(actual.applyUpdate),
    encodeStateAsUpdate: vi.fn(actual.encodeStateAsUpdate),
    decodeUpdate: vi.fn(actual.decodeUpdate),
    snapshotContainsUpdate: vi.fn(actual.snapshotContainsUpdate),
  };
});

describe("a room loaded from a stored snapshot", () => {
  it("gives a first and a late client the exact text without building the document", () => {
    const { stored, connect, isBuilt, serverEncodes } = setup();
    const first = connect("a");
    const late = connect("b");
    expect(first.file.toString()).toBe(stored.text);
    expect(late.file.toString()).toBe(stored.text);
    expect(first.client.synced && late.client.synced).toBe(true);
    expect(isBuilt()).toBe(false);
    expect(serverEncodes()).toBe(0);
  });

  it("sends a joiner our step 1 before the document: its answer is an empty step 2, dropped unread", () => {
    const { stored, connect, isBuilt } = setup();
    const joiner = connect("a");
    expect(joiner.file.toString()).toBe(stored.text);
    expect(joiner.received.map((m) => readSyncMessage(m).type)).toEqual([SYNC_STEP1, SYNC_STEP2]);
    // Its step 1, then its answer to ours, made before it held anything.
    expect(joiner.sent).toHaveLength(2);
    const answer = readSyncMessage(joiner.sent[1] ?? new Uint8Array());
    expect(answer.type === SYNC_STEP2 && isEmptyUpdate(answer.update)).toBe(true);
    expect(Y.decodeUpdate).not.toHaveBeenCalled();
    expect(Y.snapshotContainsUpdate).not.toHaveBeenCalled();
    expect(isBuilt()).toBe(false);
  });

  it("drops a returning client's step 2 that is our own delete set unread; another is still checked", () => {
    const { room, stored, connect, isBuilt } = setup();
    const returning = connect("back", stored.doc);
    expect(returning.file.toString()).toBe(stored.text);
    // Its step 2 held our delete set byte for byte: neither decoded nor compared.
    expect(Y.decodeUpdate).not.toHaveBeenCalled();
    expect(Y.snapshotContainsUpdate).not.toHaveBeenCalled();
    // One of our deletions alone brings nothing either, but is not our delete set: read and checked.
    const [client, ranges] = [...Y.decodeSnapshot(stored.summary).ds.clients][0] ?? [];
    const first = ranges?.[0];
    if (client === undefined || !first) throw new Error("the history has no deletion");
    const encoder = encoding.createEncoder();
    for (const n of [0, 1, client, 1, first.clock, first.len]) encoding.writeVarUint(encoder, n);
    room.receiveSync(returning.connection, encodeUpdate(encoding.toUint8Array(encoder)));
    expect(Y.decodeUpdate).toHaveBeenCalledTimes(1);
    expect(Y.snapshotContainsUpdate).toHaveBeenCalledTimes(1);
    expect(isBuilt()).toBe(false);
  });

  it("checks and applies an edit after the lazy load, and every client converges on it", () => {
    const { room, stored, storedUpdates, connect, deliver, isBuilt } = setup();
    const a = connect("a");
    const b = connect("b");
    a.file.insert(0, "// first edit\n");
    b.file.insert(b.file.length, "\n// second edit");
    deliver();
    const expected = `// first edit\n${stored.text}\n// second edit`;
    expect(isBuilt()).toBe(true);
    expect(a.file.toString()).toBe(expected);
    expect(b.file.toString()).toBe(expected);
    expect(room.text(MAIN)).toBe(expected);
    expect(storedUpdates).toHaveLength(2);
  });

  it("gives a client that joins after edits the snapshot and the tail, encoding nothing", () => {
    const { stored, connect, deliver, serverEncodes } = setup();
    const a = connect("a");
    for (let i = 0; i < 20; i++) a.file.insert(i, `${i}`);
    deliver();
    vi.clearAllMocks();
    const second = connect("second");
    const third = connect("third");
    expect(second.file.toString()).toBe(a.file.toString());
    expect(third.file.toString()).toBe(a.file.toString());
    expect(a.file.toString()).not.toBe(stored.text);
    expect(serverEncodes()).toBe(0);
  });

  it("serves a tail left in the log, and a returning client only what it lacks", () => {
    const stored = storedHistory();
    const typist = new Y.Doc();
    Y.applyUpdate(typist, stored.snapshot);
    const tail: Uint8Array[] = [];
    typist.on("update", (u: Uint8Array) => tail.push(u));
    const text = typist.getText(fileIdAt(typist, MAIN) ?? "missing");
    text.insert(0, "from the log ");
    text.delete(5, 3);
    const { room, connect, isBuilt } = setup(stored, tail);
    const fresh = connect("fresh");
    const returning = connect("returning", stored.doc);
    expect(fresh.file.toString()).toBe(text.toString());
    expect(returning.file.toString()).toBe(text.toString());
    expect(fresh.client.synced && returning.client.synced).toBe(true);
    // Its answer holds its whole delete set: the summary shows it is nothing new.
    expect(isBuilt()).toBe(false);

    const offline = new Y.Doc();
    Y.applyUpdate(offline, stored.snapshot);
    offline.getText(fileIdAt(offline, MAIN) ?? "missing").insert(0, "typed offline ");
    const back = connect("back", offline);
    expect(isBuilt()).toBe(true);
    // Both inserts are at 0: their order follows the (random) client ids.
    expect(room.text(MAIN).replace("typed offline ", "")).toBe(text.toString());
    for (const client of [fresh, returning, back]) expect(client.file.toString()).toBe(room.text(MAIN));
  });

  it("keeps an edit made while a snapshot was being stored", () => {
    const { room, connect, deliver } = setup();
    const a = connect("a");
    a.file.insert(0, "before ");
    deliver();
    const snapshot = room.snapshot();
    a.file.insert(0, "during ");
    deliver();
    room.snapshotStored(snapshot);
    const late = connect("late");
    expect(late.file.toString()).toBe(a.file.toString());
    expect(late.file.toString().startsWith("during before ")).toBe(true);
  });
});

describe("a room loaded from a snapshot of the old format", () => {
  it("checks its workspace at once: a legacy document gets its files", () => {
    const legacy = new Y.Doc();
    legacy.getText("main.js").insert(0, "legacy();\n");
    const room = new Room("s", { sync: () => {}, awareness: () => {} }, async () => {}, {
      snapshot: Y.encodeStateAsUpdate(legacy),
      updates: [],
    });
    expect(room.isNew).toBe(true);
    expect(room.text(MAIN)).toBe("legacy();\n");
    // The migration's update is handed to the writer once, not kept for the room's life.
    const created = room.takeCreated();
    expect(created && Y.decodeUpdate(created).structs.length).toBeGreaterThan(0);
    expect(room.takeCreated()).toBeUndefined();
  });
});

describe("a room's awareness", () => {
  /** y-protocols' awareness encoding of these entries. */
  const awarenessUpdate = (...entries: [clientId: number, clock: number, json: string][]) =>
    encodeEntries(entries);
  const connection = (id: string): RoomConnection => ({
    id,
    user: { id, name: id },
    sendSync: () => {},
    sendAwareness: () => {},
  });

  function awarenessRoom() {
    const relayed: Uint8Array[] = [];
    const room = new Room("s", { sync: () => {}, awareness: (m) => relayed.push(m) }, async () => {});
    const alice = connection("alice");
    const bob = connection("bob");
    room.join(alice);
    room.join(bob);
    return { room, relayed, alice, bob };
  }

  it("takes one state per connection, of the client id it used first, and relays it", () => {
    const { room, relayed, alice } = awarenessRoom();
    room.receiveAwareness(alice, awarenessUpdate([7, 1, '{"cursor":1}']));
    room.receiveAwareness(alice, awarenessUpdate([7, 2, '{"cursor":2}']));
    expect(relayed).toHaveLength(2);
    expect(() => room.receiveAwareness(alice, awarenessUpdate([8, 1, '{"cursor":3}']))).toThrow(
      expect.objectContaining({ code: "update_refused" }),
    );
    expect(relayed).toHaveLength(2);
  });

  it("refuses an update with many states whole, however it starts, and relays nothing", () => {
    const { room, relayed, alice } = awarenessRoom();
    const many = Array.from({ length: 2999 }, (_, i): [number, number, string] => [7 + i, 1, "{}"]);
    expect(() => room.receiveAwareness(alice, awarenessUpdate(...many))).toThrow(
      expect.objectContaining({ code: "invalid_message" }),
    );
    expect(relayed).toHaveLength(0);
    // Nothing was bound by it: the connection's first state is still free to choose.
    room.receiveAwareness(alice, awarenessUpdate([100, 1, "{}"]));
    expect(relayed).toHaveLength(1);
  });

  it("refuses another connection's client id and a state over 4 KiB", () => {
    const { room, relayed, alice, bob } = awarenessRoom();
    room.receiveAwareness(alice, awarenessUpdate([7, 1, "{}"]));
    expect(() => room.receiveAwareness(bob, awarenessUpdate([7, 2, '{"cursor":9}']))).toThrow(
      expect.objectContaining({ code: "update_refused" }),
    );
    const big = JSON.stringify({ pad: "x".repeat(MAX_AWARENESS_STATE_CHARS) });
    expect(() => room.receiveAwareness(bob, awarenessUpdate([9, 1, big]))).toThrow(
      expect.objectContaining({ code: "invalid_message" }),
    );
    expect(relayed).toHaveLength(1);
  });
});

describe("a room's document cap", () => {
  it("refuses whole an update that would take the document past its cap; others still edit", () => {
    const maxBytes = 64 * 1024;
    const clients: PipeClient[] = [];
    const broadcast: RoomBroadcast = {
      sync: (m, except) => {
        for (const c of clients) if (c.connection !== except) c.toClient.push(m);
      },
      awareness: () => {},
    };
    const room = new Room("s", broadcast, async () => {}, { updates: [] }, undefined, maxBytes);
    const refusals: unknown[] = [];
    const deliver = () => {
      while (clients.some((c) => c.toServer.length + c.toClient.length > 0)) {
        for (const c of clients) {
          for (let m = c.toServer.shift(); m; m = c.toServer.shift()) {
            try {
              room.receiveSync(c.connection, m);
            } catch (error) {
              refusals.push(error);
            }
          }
          for (let m = c.toClient.shift(); m; m = c.toClient.shift()) c.client.receiveSync(m);
        }
      }
    };
    const [flooder, typist] = ["flooder", "typist"].map((name) => {
      const c = new PipeClient(name);
      clients.push(c);
      room.join(c.connection);
      c.client.connected();
      return c as PipeClient;
    }) as [PipeClient, PipeClient];
    deliver();
    // Characters typed one by one at scattered places: ~17 bytes of Yjs each, for 1 of text.
    const scatter = () =>
      flooder.doc.transact(() => {
        for (let k = 0; k < 1000; k++) flooder.file.insert((k * 7919) % (flooder.file.length + 1), "c");
      });
    let accepted = 0;
    for (let i = 0; i < 8; i++) {
      const before = refusals.length;
      scatter();
      deliver();
      if (refusals.length === before) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(8);
    expect(refusals.every((e) => e instanceof DomainError && e.code === "update_refused")).toBe(true);
    expect((refusals[0] as Error).message).toBe(WORKSPACE_MESSAGES.documentTooLarge);
    expect(room.bytes).toBeLessThanOrEqual(maxBytes);
    const size = room.bytes;
    typist.file.insert(0, "hi");
    deliver();
    expect(room.text(MAIN).startsWith("hi")).toBe(true);
    expect(room.bytes).toBeGreaterThan(size);
  });
});
