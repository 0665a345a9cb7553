import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { waitFor } from "../../../test/collabClient";
import { openTestDb } from "../../../test/harness";
import type { Db } from "../../db/index";
import { createLogger } from "../../logger";
import { COMPACTION } from "./docWriter";
import { createDocRepo } from "./repo";
import { Room, type RoomBroadcast } from "./room";
import { RoomRegistry } from "./rooms";
import { MAIN, PipeClient } from "./testing";
import { Workspace } from "./workspace";

// Counted, not changed: a rebuild of the room's document is an applyUpdate of the stored snapshot.
vi.mock("yjs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("yjs")>();
  return { ...actual, applyUpdate: vi.fn(actual.applyUpdate) };
});

describe("a room resting after its idle compaction (PostgreSQL)", () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb("postgres"));
  });
  afterAll(() => drop());

  it("rebuilds at the next edit: clients converge, the edit is stored, a watch still fires", async () => {
    const sessionId = `rest-${Date.now()}`;
    await db.query("INSERT INTO sessions (id, title) VALUES ($1, 'rest')", [sessionId]);
    const clients: PipeClient[] = [];
    const fanOut: RoomBroadcast = {
      sync: (m, except) => {
        for (const c of clients) if (c.connection !== except) c.toClient.push(m);
      },
      awareness: () => {},
    };
    const repo = createDocRepo(db);
    const rests = vi.spyOn(Room.prototype, "rest");
    const rooms = new RoomRegistry(repo, () => fanOut, createLogger("silent"), {
      ...COMPACTION,
      idleMs: 200,
    });
    const room = await rooms.open(sessionId);
    const deliver = () => {
      while (clients.some((c) => c.toServer.length + c.toClient.length > 0)) {
        for (const c of clients) {
          for (let m = c.toServer.shift(); m; m = c.toServer.shift()) room.receiveSync(c.connection, m);
          for (let m = c.toClient.shift(); m; m = c.toClient.shift()) c.client.receiveSync(m);
        }
      }
    };
    const [a, b] = ["a", "b"].map((name) => {
      const c = new PipeClient(name);
      clients.push(c);
      room.join(c.connection);
      c.client.connected();
      return c;
    }) as [PipeClient, PipeClient];
    deliver();
    let changes = 0;
    room.watch(() => {
      changes += 1;
    });
    a.file.insert(0, "// typed\n");
    deliver();
    expect(changes).toBe(1);

    const restsBefore = rests.mock.calls.length;
    await waitFor(() => rests.mock.calls.length > restsBefore, 5000, "the idle compaction's rest");
    vi.mocked(Y.applyUpdate).mockClear();
    b.file.insert(b.file.length, "// after the rest\n");
    deliver();
    const serverCalls = vi
      .mocked(Y.applyUpdate)
      .mock.calls.filter(([doc]) => !clients.some((c) => c.doc === doc));
    // The stored snapshot into a new document, then the edit.
    expect(serverCalls).toHaveLength(2);
    expect(changes).toBe(2);
    expect(a.file.toString()).toBe(b.file.toString());
    expect(room.text(MAIN)).toBe(a.file.toString());

    await rooms.settled(sessionId);
    const stored = await repo.load(sessionId);
    const reloaded = new Y.Doc();
    for (const update of stored.snapshot ? [stored.snapshot, ...stored.updates] : stored.updates) {
      Y.applyUpdate(reloaded, update);
    }
    const text = new Workspace(reloaded).read().find((f) => f.path === MAIN)?.content;
    expect(text).toBe(a.file.toString());
    expect(text).toContain("// after the rest");

    // A read alone (a run, git) builds the document too: it rests again after the quiet.
    const restsAfterEdit = rests.mock.calls.length;
    await waitFor(() => rests.mock.calls.length > restsAfterEdit, 5000, "the rest after the edit");
    vi.mocked(Y.applyUpdate).mockClear();
    expect(room.text(MAIN)).toBe(a.file.toString());
    expect(vi.mocked(Y.applyUpdate).mock.calls).toHaveLength(1);
    const restsAfterRead = rests.mock.calls.length;
    await waitFor(() => rests.mock.calls.length > restsAfterRead, 5000, "the rest after the read");
    vi.mocked(Y.applyUpdate).mockClear();
    expect(room.text(MAIN)).toBe(a.file.toString());
    expect(vi.mocked(Y.applyUpdate).mock.calls).toHaveLength(1);
    for (const c of clients) room.leave(c.connection);
    await rooms.releaseIfEmpty(sessionId);
  });
});
