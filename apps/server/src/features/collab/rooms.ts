import { type SessionOwnership, soleOwnership } from "../../cluster/leases";
import type { Logger } from "../../logger";
import { COMPACTION, type CompactionPolicy, DocWriter } from "./docWriter";
import type { DocRepo } from "./repo";
import { Room, type RoomBroadcast, type UpdateCounts } from "./room";
import { UpdateLog } from "./updateLog";

interface LiveRoom {
  room: Room;
  writer: DocWriter;
}

/**
 * The sessions whose document is loaded. A room is loaded on its first join (as its stored
 * bytes: see Room) and unloaded (flushed, and compacted if anything changed) when its last
 * connection leaves; a join that arrives while a room is unloading waits for it, so it never
 * loads a state missing the last writes.
 */
export class RoomRegistry {
  private readonly live = new Map<string, Promise<LiveRoom>>();
  private readonly ready = new Map<string, Room>();
  /** One log for all sessions, so a tick's updates cost one INSERT. */
  private readonly log: UpdateLog;
  private readonly closing = new Map<string, Promise<void>>();
  /** Client updates every room of this process applied and refused. */
  readonly counts: UpdateCounts = { applied: 0, refused: 0, deferred: 0 };

  constructor(
    private readonly repo: DocRepo,
    private readonly broadcastFor: (sessionId: string) => RoomBroadcast,
    private readonly logger: Logger,
    private readonly compaction: CompactionPolicy = COMPACTION,
    /** The session leases of a cluster: claimed on load, let go after unload. */
    private readonly ownership: SessionOwnership = soleOwnership(),
  ) {
    this.log = new UpdateLog(repo, logger);
  }

  /** The loaded room of a session, loading it when needed. */
  open(sessionId: string): Promise<Room> {
    let entry = this.live.get(sessionId);
    if (!entry) {
      entry = this.load(sessionId);
      this.live.set(sessionId, entry);
      entry.catch(() => this.live.delete(sessionId));
    }
    return entry.then((l) => l.room);
  }

  /**
   * The room if it is loaded now, synchronously: a connection's messages must be applied in
   * the order they arrived, before a disconnect that follows them is handled.
   */
  loaded(sessionId: string): Room | undefined {
    return this.ready.get(sessionId);
  }

  /** How many sessions have a loaded document. */
  get size(): number {
    return this.ready.size;
  }

  isLoaded(sessionId: string): boolean {
    return this.live.has(sessionId) || this.closing.has(sessionId);
  }

  /** Resolves when a loaded session's updates so far are stored and its compactions begun are done. */
  async settled(sessionId: string): Promise<void> {
    const entry = this.live.get(sessionId);
    if (entry) await (await entry).writer.settled();
  }

  /** Unloads the session's room if nobody is in it any more. */
  async releaseIfEmpty(sessionId: string): Promise<void> {
    const entry = this.live.get(sessionId);
    if (!entry) return;
    const live = await entry;
    if (live.room.size > 0 || this.live.get(sessionId) !== entry) return;
    this.live.delete(sessionId);
    this.ready.delete(sessionId);
    const done = this.unload(live).finally(() => this.closing.delete(sessionId));
    this.closing.set(sessionId, done);
    await done;
    if (!this.live.has(sessionId)) await this.ownership.release(sessionId);
  }

  /** Flushes and compacts every loaded room (SIGTERM), then unloads them all. */
  async closeAll(): Promise<void> {
    const entries = [...this.live.values()];
    this.live.clear();
    this.ready.clear();
    await Promise.all([...entries.map(async (e) => this.unload(await e)), ...this.closing.values()]);
  }

  private async load(sessionId: string): Promise<LiveRoom> {
    await this.closing.get(sessionId);
    const stored = await this.repo.load(sessionId);
    let writer: DocWriter | undefined;
    const room = new Room(
      sessionId,
      this.broadcastFor(sessionId),
      (update, author) => writer?.push(update, author) ?? Promise.resolve(),
      stored,
      this.counts,
    );
    // One current snapshot and an empty log: nothing to fold until something changes.
    const isFolded =
      stored.summary !== undefined && stored.stateVector !== undefined && stored.updates.length === 0;
    writer = new DocWriter(
      sessionId,
      room,
      this.repo,
      this.log,
      this.logger,
      this.compaction,
      !isFolded,
      stored.generation ?? null,
    );
    const built = writer;
    room.onBuilt = () => built.documentBuilt();
    // A new or migrated document is stored at once, so every later update builds on it; through
    // the log, so the history starts with it too.
    const created = room.takeCreated();
    if (created) void writer.push(created);
    if (room.isNew) await writer.compact();
    this.ready.set(sessionId, room);
    // Not awaited: the room serves whether or not Redis answers (two writers are safe).
    void this.ownership.claim(sessionId);
    return { room, writer };
  }

  private async unload({ room, writer }: LiveRoom) {
    await writer.compact();
    writer.close();
    room.destroy();
  }
}
