import type { Server as HttpServer } from "node:http";
import { fileText, LANE_AWARENESS, LANE_SYNC, type LaneKind, listWorkspace, toWire } from "@ensemble/collab";
import * as Y from "yjs";
import type { SessionOwnership } from "../../cluster/index";
import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import type { SocketEvents } from "../../realtime/handle";
import type { PresenceRegistry } from "../../realtime/presence";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import { applyFolders, applyTree, type TreeApplied } from "./applyTree";
import { type Lane, LaneServer } from "./lane";
import { createDocRepo, type DocRepo } from "./repo";
import { RoomRegistry } from "./rooms";
import { registerCollabEvents } from "./socket";
import { AssemblyBudget } from "./syncParts";
import type { WorkspaceFile } from "./workspace";

export type { TreeApplied, WorkspaceFile };

/** Reads the live workspace of a loaded session (undefined when it is not loaded). */
export interface WorkspaceReader {
  files(sessionId: string): WorkspaceFile[] | undefined;
  /** Whether the session's document is loaded here now (without reading its files). */
  isLoaded(sessionId: string): boolean;
}

/** A subscription to a loaded session's document (see `WorkspaceAccess.watch`). */
export interface WorkspaceWatch {
  /** False once the session's room was unloaded (a later load is a new room); a rest keeps it. */
  readonly isLive: boolean;
  stop(): void;
}

/**
 * Reads and writes the live workspace: what git and reviews use. `applyTree` brings the files
 * from `base` to `target` as edits everyone receives, keeping what was typed meanwhile, and
 * with `folders` (a restore's) the folders to exactly those, empty ones included; the history
 * records them as `author`'s (a participant id), or the server's when none is given.
 */
export interface WorkspaceAccess extends WorkspaceReader {
  applyTree(
    sessionId: string,
    base: ReadonlyMap<string, string>,
    target: ReadonlyMap<string, string>,
    author?: string,
    folders?: readonly string[],
  ): Promise<TreeApplied | undefined>;
  /**
   * Calls `onChange` after each transaction that changed the session's loaded document (any
   * file, from anyone), until stopped; undefined when the document is not loaded here.
   */
  watch(sessionId: string, onChange: () => void): WorkspaceWatch | undefined;
}

/** What live editing reports of its storage (metrics): each tick's one INSERT of updates. */
export interface StorageObserver {
  /** A tick stored `updates` updates (those of deleted sessions left out) in one statement that took `seconds`. */
  tickStored(seconds: number, updates: number): void;
  /** A tick's statement failed; its updates are retried with the next one. */
  tickFailed(): void;
}

/** Wires live editing: rooms of Yjs documents stored in the database, over socket.io. */
export function createCollabFeature(
  server: HttpServer,
  io: EditorServer,
  events: SocketEvents,
  presence: PresenceRegistry,
  db: Db,
  logger: Logger,
  ownership?: SessionOwnership,
  storage?: StorageObserver,
) {
  const lanes = new LaneServer(server, logger);
  const laneMembers = new Map<string, Map<string, Lane>>();

  /**
   * Sends to everyone in the session but `except`: through each open lane, and to sockets
   * without one in a socket.io room broadcast, which encodes the message once for them all.
   */
  const broadcast = (
    sessionId: string,
    kind: LaneKind,
    message: Uint8Array,
    exceptId: string | undefined,
  ) => {
    const members = laneMembers.get(sessionId);
    if (members) for (const [socketId, lane] of members) if (socketId !== exceptId) lane.send(kind, message);
    // The socket.io broadcast encodes even for no one: skip it when every socket has a lane
    // (the usual case, checked without allocating: this runs for every keystroke).
    const inRoom = presence.socketIds(sessionId);
    let isLaneless = false;
    for (const socketId of inRoom ?? []) isLaneless ||= socketId !== exceptId && !members?.has(socketId);
    if (!isLaneless) return;
    const without = [...(members?.keys() ?? [])];
    if (exceptId) without.push(exceptId);
    const event = kind === LANE_SYNC ? "yjsSync" : "yjsAwareness";
    // Local: every socket of a session is on its owner node, and Yjs never crosses Redis.
    io.local.to(sessionRoom(sessionId)).except(without).emit(event, toWire(message));
  };
  const docRepo = timedAppends(createDocRepo(db), storage);
  const rooms = new RoomRegistry(
    docRepo,
    (sessionId) => ({
      sync: (message, except) => broadcast(sessionId, LANE_SYNC, message, except?.id),
      awareness: (message, except) => broadcast(sessionId, LANE_AWARENESS, message, except?.id),
    }),
    logger,
    undefined,
    ownership,
  );
  // Another node serves this session too, where the balancer sends its new connections now:
  // closing our sockets of it (and so their lanes) brings its clients there through the
  // balancer; the last one out unloads the room, which stores it and lets the lease go.
  // The connection is closed under the socket, not the socket disconnected: socket.io's client
  // takes a server's disconnect as final, but reconnects after a lost connection (its first
  // try 0.5-1.5 s later, its backoff) and resyncs, merging what was typed meanwhile.
  ownership?.onHandover((sessionId) => {
    for (const socket of presence.sockets(sessionId)) socket.conn.close();
  });
  const assembling = new AssemblyBudget();
  const documents = registerCollabEvents({ events, rooms, lanes, laneMembers, assembling });
  /** A session's files as stored, read into a document of its own that nobody serves. */
  async function storedFiles(sessionId: string): Promise<WorkspaceFile[]> {
    const stored = await docRepo.load(sessionId);
    const doc = new Y.Doc();
    try {
      if (stored.snapshot) Y.applyUpdate(doc, stored.snapshot);
      for (const update of stored.updates) Y.applyUpdate(doc, update);
      return listWorkspace(doc).files.map(({ id, path }) => ({
        path,
        content: fileText(doc, id).toString(),
      }));
    } finally {
      doc.destroy();
    }
  }
  const workspace: WorkspaceAccess = {
    files(sessionId) {
      return rooms.loaded(sessionId)?.workspace.read();
    },
    isLoaded: (sessionId) => rooms.loaded(sessionId) !== undefined,
    async applyTree(sessionId, base, target, author, folders) {
      const room = rooms.loaded(sessionId);
      return room?.change((w) => {
        const applied = applyTree(room.doc, w, base, target);
        if (folders) applyFolders(w, folders, applied);
        return applied;
      }, author);
    },
    watch(sessionId, onChange) {
      const room = rooms.loaded(sessionId);
      if (!room) return undefined;
      // On the room, not its document: the document rests and is rebuilt while the room stays.
      const stop = room.watch(onChange);
      return {
        get isLive() {
          return rooms.loaded(sessionId) === room;
        },
        stop,
      };
    },
  };
  return {
    rooms,
    /** Bytes being joined from sync parts now (large resyncs in progress). */
    assembling,
    workspace,
    /** A session's files: the live ones when its document is loaded here, else the stored ones. */
    filesOf: async (sessionId: string): Promise<WorkspaceFile[]> =>
      workspace.files(sessionId) ?? storedFiles(sessionId),
    /** What the sessions feature's join, leave, end and language switch do to a document. */
    documents,
    close: () => {
      lanes.close();
      return rooms.closeAll();
    },
  };
}

/** The repo with each tick's INSERT (`appendMany`, called by the update log only) timed for `storage`. */
function timedAppends(repo: DocRepo, storage: StorageObserver | undefined): DocRepo {
  if (!storage) return repo;
  return {
    ...repo,
    async appendMany(rows) {
      const started = performance.now();
      try {
        const stored = await repo.appendMany(rows);
        storage.tickStored((performance.now() - started) / 1000, stored);
        return stored;
      } catch (error) {
        storage.tickFailed();
        throw error;
      }
    },
  };
}
