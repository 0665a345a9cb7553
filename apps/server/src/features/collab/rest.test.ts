import { fileIdAt } from "@ensemble/collab";
import { describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { encodeEntries } from "./awareness";
import { MAX_RESTING_BYTES } from "./liveDocument";
import type { Room } from "./room";
import type { MarkedSnapshot } from "./syncState";
import { MAIN, setup } from "./testing";
import { Workspace } from "./workspace";

// Counted, not changed: whether the room rebuilt its document is what these tests check.
vi.mock("yjs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("yjs")>();
  return { ...actual, applyUpdate: vi.fn(actual.applyUpdate) };
});

/** What the idle compaction does: stores a snapshot of the document, then rests it. */
function compactAndRest(room: Room): MarkedSnapshot {
  const snapshot = room.snapshot();
  room.snapshotStored(snapshot);
  room.rest();
  return snapshot;
}

/** Whether the room built a document from `snapshot` (it rebuilds from the last one stored). */
const isRebuiltFrom = (snapshot: MarkedSnapshot) =>
  vi.mocked(Y.applyUpdate).mock.calls.some(([, update]) => update === snapshot.state);

/** A stored document of one file holding `bytes` of text. */
function storedOfSize(bytes: number) {
  const doc = new Y.Doc();
  new Workspace(doc).ensureInitialised();
  doc.getText(fileIdAt(doc, MAIN) ?? "missing").insert(0, "x".repeat(bytes));
  return {
    doc,
    snapshot: Y.encodeStateAsUpdate(doc),
    stateVector: Y.encodeStateVector(doc),
    summary: Y.encodeSnapshot(Y.snapshot(doc)),
    text: "",
  };
}

describe("a room at rest", () => {
  it("rebuilds at the next edit: two clients' edits converge and are stored", () => {
    const { room, stored, storedUpdates, connect, deliver } = setup();
    const a = connect("a");
    const b = connect("b");
    a.file.insert(0, "before ");
    deliver();
    const rested = compactAndRest(room);
    a.file.insert(0, "// a\n");
    b.file.insert(b.file.length, "\n// b");
    deliver();
    expect(isRebuiltFrom(rested)).toBe(true);
    const expected = `// a\nbefore ${stored.text}\n// b`;
    expect(a.file.toString()).toBe(expected);
    expect(b.file.toString()).toBe(expected);
    expect(room.text(MAIN)).toBe(expected);
    expect(storedUpdates).toHaveLength(3);
    expect(connect("late").file.toString()).toBe(expected);
  });

  it("serves a joiner, a returning client and awareness from the stored bytes, without building", () => {
    const { room, connect, deliver } = setup();
    const a = connect("a");
    a.file.insert(0, "typed ");
    deliver();
    const rested = compactAndRest(room);
    const fresh = connect("fresh");
    const returning = connect("returning", a.doc);
    expect(fresh.file.toString()).toBe(a.file.toString());
    expect(returning.file.toString()).toBe(a.file.toString());
    expect(fresh.client.synced && returning.client.synced).toBe(true);
    room.receiveAwareness(fresh.connection, encodeEntries([[7, 1, "{}"]]));
    expect(isRebuiltFrom(rested)).toBe(false);
  });

  it("does not rest while a change of ours is between its capture and its send", async () => {
    const { room, connect, holdStores } = setup();
    connect("a");
    const stored = room.snapshot();
    room.snapshotStored(stored);
    const release = holdStores();
    const changing = room.change((w) => w.createFile("notes.md", "kept"));
    room.rest();
    // Something reads the workspace while the change is being stored (a run, git).
    expect(room.workspace.read().some((f) => f.path === "notes.md")).toBe(true);
    release();
    await changing;
    expect(room.text("notes.md")).toBe("kept");
    const next = new Y.Doc();
    Y.applyUpdate(next, room.snapshot().state);
    expect(new Workspace(next).read().find((f) => f.path === "notes.md")?.content).toBe("kept");
  });

  it("does not rest a document over MAX_RESTING_BYTES", () => {
    const { room, connect, deliver } = setup(storedOfSize(MAX_RESTING_BYTES + 1024));
    const a = connect("a");
    a.file.insert(0, "edit ");
    deliver();
    const kept = compactAndRest(room);
    a.file.insert(0, "again ");
    deliver();
    expect(isRebuiltFrom(kept)).toBe(false);
    expect(room.text(MAIN).startsWith("again edit ")).toBe(true);
  });

  it("rests a document just under MAX_RESTING_BYTES", () => {
    const { room, connect, deliver } = setup(storedOfSize(MAX_RESTING_BYTES - 4096));
    const a = connect("a");
    a.file.insert(0, "edit ");
    deliver();
    const rested = compactAndRest(room);
    a.file.insert(0, "again ");
    deliver();
    expect(isRebuiltFrom(rested)).toBe(true);
  });

  it("does not rest with updates sent since the snapshot", () => {
    const { room, connect, deliver } = setup();
    const a = connect("a");
    a.file.insert(0, "before ");
    deliver();
    const kept = room.snapshot();
    a.file.insert(0, "during ");
    deliver();
    room.snapshotStored(kept);
    room.rest();
    a.file.insert(0, "after ");
    deliver();
    expect(isRebuiltFrom(kept)).toBe(false);
    expect(room.text(MAIN).startsWith("after during before ")).toBe(true);
  });

  it("keeps a watch firing across a rest and a rebuild, and not for the rebuild itself", () => {
    const { room, connect, deliver } = setup();
    const a = connect("a");
    let changes = 0;
    const stop = room.watch(() => {
      changes += 1;
    });
    a.file.insert(0, "one ");
    deliver();
    expect(changes).toBe(1);
    const rested = compactAndRest(room);
    a.file.insert(0, "two ");
    deliver();
    expect(isRebuiltFrom(rested)).toBe(true);
    expect(changes).toBe(2);
    stop();
    a.file.insert(0, "three ");
    deliver();
    expect(changes).toBe(2);
  });
});
