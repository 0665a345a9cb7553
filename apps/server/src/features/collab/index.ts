import { toWire } from "@ensemble/collab";
import type { Presence } from "@ensemble/protocol";
import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import { applyTree, type TreeApplied } from "./applyTree";
import { createDocRepo } from "./repo";
import { RoomRegistry } from "./rooms";
import { registerCollabSocket } from "./socket";
import type { WorkspaceFile } from "./workspace";

export type { TreeApplied, WorkspaceFile };

/** Reads the live workspace of a loaded session (undefined when it is not loaded). */
export interface WorkspaceReader {
  files(sessionId: string): WorkspaceFile[] | undefined;
}

/**
 * Reads and writes the live workspace: what git and reviews use. `applyTree` brings the files
 * from `base` to `target` as edits everyone receives, keeping what was typed meanwhile.
 */
export interface WorkspaceAccess extends WorkspaceReader {
  applyTree(
    sessionId: string,
    base: ReadonlyMap<string, string>,
    target: ReadonlyMap<string, string>,
  ): Promise<TreeApplied | undefined>;
}

/** Wires live editing: rooms of Yjs documents stored in the database, over socket.io. */
export function createCollabFeature(io: EditorServer, db: Db, sessions: SessionService, logger: Logger) {
  // Broadcasts go through socket.io rooms so each message is encoded once for all receivers.
  const rooms = new RoomRegistry(
    createDocRepo(db),
    (sessionId) => ({
      sync: (message, except) => {
        const target = io.to(sessionRoom(sessionId));
        (except ? target.except(except.id) : target).emit("yjsSync", toWire(message));
      },
      awareness: (message, except) => {
        const target = io.to(sessionRoom(sessionId));
        (except ? target.except(except.id) : target).emit("yjsAwareness", toWire(message));
      },
    }),
    logger,
  );
  const presences = new Map<string, Presence>();
  io.on("connection", (socket) => registerCollabSocket(socket, { io, sessions, rooms, presences, logger }));
  const workspace: WorkspaceAccess = {
    files(sessionId) {
      return rooms.loaded(sessionId)?.workspace.read();
    },
    async applyTree(sessionId, base, target) {
      const room = rooms.loaded(sessionId);
      return room?.change((w) => applyTree(room.doc, w, base, target));
    },
  };
  return { rooms, workspace, close: () => rooms.closeAll() };
}
