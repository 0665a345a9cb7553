import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../logger";
import { type Compactable, type CompactionPolicy, DocWriter } from "./docWriter";
import type { DocRepo } from "./repo";
import type { MarkedSnapshot } from "./syncState";
import type { UpdateLog } from "./updateLog";

const POLICY: CompactionPolicy = { every: 3, everyBytes: 1024 * 1024, idleMs: 10_000 };

/** A document that counts its snapshots and rests, over a repo whose compactions can be held. */
function setup() {
  const empty = new Uint8Array([0, 0]);
  const snapshot: MarkedSnapshot = {
    state: empty,
    stateVector: new Uint8Array([0]),
    summary: empty,
    mark: 0,
  };
  const document: Compactable = {
    absorb: vi.fn(),
    snapshot: vi.fn(() => snapshot),
    snapshotStored: vi.fn(),
    rest: vi.fn(),
  };
  let held: Promise<void> | undefined;
  const repo = {
    compact: async (_sessionId: string, fold: (foreign: Uint8Array[]) => MarkedSnapshot) => {
      await held;
      fold([]);
      return 1;
    },
  } as Pick<DocRepo, "compact"> as DocRepo;
  const log = { append: () => Promise.resolve() } as Pick<UpdateLog, "append"> as UpdateLog;
  const writer = new DocWriter("s", document, repo, log, createLogger("silent"), POLICY);
  /** Compactions wait on the database until the returned release is called. */
  const holdCompactions = () => {
    let release = () => {};
    held = new Promise((done) => {
      release = done;
    });
    return release;
  };
  return { writer, document, holdCompactions };
}

describe("DocWriter's idle compaction", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rests the document after folding what the quiet spell left", async () => {
    const { writer, document } = setup();
    void writer.push(new Uint8Array([1]));
    await vi.advanceTimersByTimeAsync(POLICY.idleMs - 1);
    expect(document.snapshot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await writer.settled();
    expect(document.snapshotStored).toHaveBeenCalledTimes(1);
    expect(document.rest).toHaveBeenCalledTimes(1);
  });

  it("does not rest after a compaction during typing, only after the quiet that follows", async () => {
    const { writer, document } = setup();
    for (let i = 0; i < POLICY.every; i++) void writer.push(new Uint8Array([i]));
    await writer.settled();
    expect(document.snapshotStored).toHaveBeenCalledTimes(1);
    expect(document.rest).not.toHaveBeenCalled();
    // Nothing is left to fold after the quiet: the stored snapshot is current, so it rests.
    await vi.advanceTimersByTimeAsync(POLICY.idleMs);
    await writer.settled();
    expect(document.snapshotStored).toHaveBeenCalledTimes(1);
    expect(document.rest).toHaveBeenCalledTimes(1);
  });

  it("does not rest when an update arrives while the compaction awaits the database", async () => {
    const { writer, document, holdCompactions } = setup();
    void writer.push(new Uint8Array([1]));
    const release = holdCompactions();
    await vi.advanceTimersByTimeAsync(POLICY.idleMs);
    void writer.push(new Uint8Array([2]));
    release();
    await writer.settled();
    expect(document.snapshotStored).toHaveBeenCalledTimes(1);
    expect(document.rest).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(POLICY.idleMs);
    await writer.settled();
    expect(document.snapshotStored).toHaveBeenCalledTimes(2);
    expect(document.rest).toHaveBeenCalledTimes(1);
  });

  it("rests a document built by a read after the quiet that follows, with nothing to fold", async () => {
    const { writer, document } = setup();
    void writer.push(new Uint8Array([1]));
    await vi.advanceTimersByTimeAsync(POLICY.idleMs);
    await writer.settled();
    expect(document.rest).toHaveBeenCalledTimes(1);
    writer.documentBuilt();
    await vi.advanceTimersByTimeAsync(POLICY.idleMs - 1);
    expect(document.rest).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await writer.settled();
    expect(document.rest).toHaveBeenCalledTimes(2);
    expect(document.snapshotStored).toHaveBeenCalledTimes(1);
  });

  it("does not rest after the unload's compaction", async () => {
    const { writer, document } = setup();
    void writer.push(new Uint8Array([1]));
    await writer.compact();
    writer.close();
    await vi.advanceTimersByTimeAsync(POLICY.idleMs);
    expect(document.rest).not.toHaveBeenCalled();
  });
});
