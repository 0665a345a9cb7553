import { LANE_AWARENESS, LANE_CLOSE, LANE_SYNC, toWire } from "@ensemble/collab";
import { type Language, SESSION_ENDED_MESSAGE, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import { STREAM_REFUSAL, StreamMeter } from "../../realtime/admission";
import type { SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import type { SessionDocuments } from "../sessions/index";
import type { Lane, LaneEnd, LaneServer } from "./lane";
import type { Room, RoomConnection } from "./room";
import type { RoomRegistry } from "./rooms";
import { type AssemblyBudget, PartAssembler } from "./syncParts";
import type { Workspace } from "./workspace";

export interface CollabSocketDeps {
  events: SocketEvents;
  rooms: RoomRegistry;
  lanes: LaneServer;
  /** session id → the open lanes of its sockets, by socket id (broadcasts go through them). */
  laneMembers: Map<string, Map<string, Lane>>;
  /** The bound on bytes being joined from parts, shared by every socket. */
  assembling: AssemblyBudget;
}

/** What collab remembers of one socket, from its first join until it disconnects. */
interface SocketState {
  /** The session it is in now. */
  membership?: Membership | undefined;
  /** Its Yjs messages' bucket, kept across rejoins so that leaving does not refill it. */
  meter: StreamMeter;
  /** A resync is asked for once the meter allows again (a dropped update leaves a gap). */
  isResyncDue: boolean;
}

interface Membership {
  sessionId: string;
  connection: RoomConnection;
  /** The Yjs lane, once the client opened it; until then Yjs messages go over socket.io. */
  lane?: Lane | undefined;
  laneEnd: LaneEnd;
  /** The room it was seated at: its first sync joins it there. */
  room: Room;
  /** Joins its sync messages that come in parts (a large resync); dropped when a carrier closes. */
  parts: PartAssembler;
}

/**
 * The live document's events: Yjs messages and file operations, from sockets the sessions
 * feature seated at a session's document (`SessionDocuments`, returned); what a socket sends
 * before it is seated is refused.
 */
export function registerCollabEvents(deps: CollabSocketDeps): SessionDocuments {
  const { events, rooms, lanes, laneMembers, assembling } = deps;
  const states = new WeakMap<EditorSocket, SocketState>();

  // The membership check is realtime's; collab keeps what it needs beside it (the connection).
  const requireMember = (socket: EditorSocket, sessionId?: string): Membership => {
    const membership = states.get(socket)?.membership;
    if (!membership) throw new DomainError("not_joined", "Join the session first");
    requireJoined(socket, sessionId ?? membership.sessionId);
    return membership;
  };

  function unseat(socket: EditorSocket): string | undefined {
    const state = states.get(socket);
    const current = state?.membership;
    if (!state || !current) return undefined;
    state.membership = undefined;
    current.parts.drop();
    lanes.revoke(current.laneEnd);
    if (current.lane) {
      dropLane(socket, current.sessionId);
      current.lane.close(LANE_CLOSE.left, "left the session");
    }
    rooms.loaded(current.sessionId)?.leave(current.connection);
    return current.sessionId;
  }

  async function seat(socket: EditorSocket, sessionId: string, isEnded: boolean): Promise<string> {
    const identity = socket.data.identity;
    let state = states.get(socket);
    if (!state) {
      state = { meter: new StreamMeter(), isResyncDue: false };
      states.set(socket, state);
    }
    const connection: RoomConnection = {
      id: socket.id,
      user: { id: identity.id, name: identity.name },
      // Read per message: the host may change the role while the socket stays.
      isReadOnly: () => socket.data.session?.role === "viewer",
      sendSync: (message) => {
        if (membership.lane) membership.lane.send(LANE_SYNC, message);
        else socket.emit("yjsSync", toWire(message));
      },
      sendAwareness: (message) => {
        if (membership.lane) membership.lane.send(LANE_AWARENESS, message);
        else socket.emit("yjsAwareness", toWire(message));
      },
    };
    const room = await rooms.open(sessionId);
    // The database says whether the session is ended when the room is loaded; from then the
    // room knows (a later join's read could predate an end or a reopen that raced with it).
    room.isEnded ??= isEnded;
    const laneEnd: LaneEnd = {
      open: (lane) => {
        if (state.membership !== membership || membership.lane) return false;
        membership.lane = lane;
        let members = laneMembers.get(sessionId);
        if (!members) {
          members = new Map();
          laneMembers.set(sessionId, members);
        }
        members.set(socket.id, lane);
        return true;
      },
      receive: (kind, message) => relay(socket, kind === LANE_SYNC ? "sync" : "awareness", message),
      closed: (lane) => {
        if (membership.lane !== lane) return;
        membership.lane = undefined;
        // Its parts can no longer all come: the resync over socket.io starts a new stream.
        membership.parts.drop();
        if (state.membership === membership) dropLane(socket, sessionId);
      },
    };
    const membership: Membership = {
      sessionId,
      connection,
      laneEnd,
      room,
      parts: new PartAssembler(assembling),
    };
    state.membership = membership;
    return lanes.issue(laneEnd);
  }

  /** Joins the seated socket's connection to the room it was seated at (its first sync). */
  function sync(socket: EditorSocket): void {
    const membership = states.get(socket)?.membership;
    membership?.room.join(membership.connection);
  }

  function dropLane(socket: EditorSocket, sessionId: string) {
    const members = laneMembers.get(sessionId);
    members?.delete(socket.id);
    if (members?.size === 0) laneMembers.delete(sessionId);
  }

  /** Runs a file operation on the joined session's workspace; refusals go back as errors. */
  async function changeWorkspace<T>(
    socket: EditorSocket,
    sessionId: string,
    operation: (workspace: Workspace, room: Room) => T,
  ): Promise<T> {
    requireMember(socket, sessionId);
    requireCan(socket, sessionId, "edit");
    const room: Room | undefined = rooms.loaded(sessionId);
    if (!room) throw new DomainError("not_joined", "Join the session first");
    if (room.isEnded) throw new DomainError("session_ended", SESSION_ENDED_MESSAGE);
    return room.change((workspace) => operation(workspace, room));
  }

  events.on("createFile", async (socket, { sessionId, path, kind, content, id }) => ({
    path: await changeWorkspace(socket, sessionId, (w, room) => {
      // A new file may hold up to a file's limit: a nearly full document takes none.
      if (room.isFull) throw new DomainError("limit", WORKSPACE_MESSAGES.documentTooLarge);
      return kind === "folder" ? w.createFolder(path) : w.createFile(path, content, id);
    }),
  }));

  events.on("restorePath", async (socket, { sessionId, path, files, folders }) => ({
    path: await changeWorkspace(socket, sessionId, (w, room) => {
      if (room.isFull) throw new DomainError("limit", WORKSPACE_MESSAGES.documentTooLarge);
      const entries = files.map(({ id, path: filePath }) => ({ id, path: filePath }));
      return w.restore(
        path,
        entries,
        files.map((f) => f.content),
        folders,
      );
    }),
  }));

  events.on("renamePath", async (socket, { sessionId, from, to }) => ({
    path: await changeWorkspace(socket, sessionId, (w) => w.rename(from, to)),
  }));

  events.on("deletePath", async (socket, { sessionId, path }) => ({
    path: await changeWorkspace(socket, sessionId, (w) => w.delete(path)),
  }));

  /** A language switch's file change: an edit of the workspace, refused like one. */
  async function ensureMainFile(socket: EditorSocket, sessionId: string, language: Language) {
    await changeWorkspace(socket, sessionId, (w) => {
      try {
        w.ensureMainFile(language);
      } catch (error) {
        // A full workspace still switches; the editor then stays on the file it has open.
        if (!(error instanceof DomainError)) throw error;
      }
    });
  }

  /** A dropped update leaves a gap: once the meter allows again, ask for what we lack. */
  const resyncLater = (state: SocketState, member: Membership) => {
    if (state.isResyncDue) return;
    state.isResyncDue = true;
    setTimeout(() => {
      state.isResyncDue = false;
      if (state.membership === member) rooms.loaded(member.sessionId)?.askForMissing(member.connection);
    }, 1000).unref();
  };
  // Synchronous on purpose: see RoomRegistry.loaded. The lane's messages come here too.
  const relay = (socket: EditorSocket, kind: "sync" | "awareness", message: Uint8Array) => {
    const member = requireMember(socket);
    // A member's socket has its state (made by the join).
    const state = states.get(socket) as SocketState;
    if (!state.meter.take()) {
      if (kind === "sync") resyncLater(state, member);
      throw new DomainError("rate_limited", STREAM_REFUSAL);
    }
    const room = rooms.loaded(member.sessionId);
    if (!room) throw new DomainError("not_joined", "Join the session first");
    if (kind === "awareness") {
      room.receiveAwareness(member.connection, message);
      return undefined;
    }
    let whole: Uint8Array | undefined;
    try {
      whole = member.parts.receive(message);
    } catch (error) {
      // Too many large messages being joined at once: ask for this one again later.
      if (error instanceof DomainError && error.code === "rate_limited") resyncLater(state, member);
      throw error;
    }
    if (whole) room.receiveSync(member.connection, whole);
    return undefined;
  };
  events.on("yjsSync", (socket, message) => relay(socket, "sync", message));
  events.on("yjsAwareness", (socket, message) => relay(socket, "awareness", message));

  return {
    seat,
    sync,
    unseat,
    release: (sessionId) => rooms.releaseIfEmpty(sessionId),
    setEnded(sessionId, isEnded) {
      const room = rooms.loaded(sessionId);
      if (room) room.isEnded = isEnded;
    },
    ensureMainFile,
  };
}
