import { LANE_AWARENESS, LANE_CLOSE, LANE_SYNC, toWire } from "@ensemble/collab";
import {
  type Presence,
  ROLE_MESSAGES,
  SESSION_ENDED_MESSAGE,
  type SessionState,
  WORKSPACE_MESSAGES,
} from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import { STREAM_REFUSAL, StreamMeter } from "../../realtime/admission";
import type { SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined, sessionRoom } from "../../realtime/session";
import type { EditorServer, EditorSocket } from "../../realtime/socket";
import type { Lobby } from "../roles/lobby";
import type { SessionService } from "../sessions/index";
import type { Lane, LaneEnd, LaneServer } from "./lane";
import type { Room, RoomConnection } from "./room";
import type { RoomRegistry } from "./rooms";
import type { Workspace } from "./workspace";

export interface CollabSocketDeps {
  io: EditorServer;
  events: SocketEvents;
  sessions: SessionService;
  rooms: RoomRegistry;
  /** socket id → presence, for every socket in a session on this process. */
  presences: Map<string, Presence>;
  lanes: LaneServer;
  /** session id → the open lanes of its sockets, by socket id (broadcasts go through them). */
  laneMembers: Map<string, Map<string, Lane>>;
  /** Who waits to enter locked sessions. */
  lobby: Lobby;
  logger: Logger;
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
  presence: Presence;
  connection: RoomConnection;
  /** The Yjs lane, once the client opened it; until then Yjs messages go over socket.io. */
  lane?: Lane | undefined;
  laneEnd: LaneEnd;
}

/** Who is in a session now, one entry per person however many tabs they have open. */
export function presenceList(deps: CollabSocketDeps, sessionId: string): Presence[] {
  const seen = new Map<string, Presence>();
  for (const socketId of deps.io.sockets.adapter.rooms.get(sessionRoom(sessionId)) ?? []) {
    const presence = deps.presences.get(socketId);
    if (presence && !seen.has(presence.id)) seen.set(presence.id, presence);
  }
  return [...seen.values()];
}

/**
 * The editor's session events. A socket is in at most one session; until it has joined,
 * every message about a session is refused and nothing of a session reaches it.
 */
export function registerCollabEvents(deps: CollabSocketDeps) {
  const { events, sessions, rooms, presences, lanes, laneMembers, lobby, logger } = deps;
  const states = new WeakMap<EditorSocket, SocketState>();

  // The membership check is realtime's; collab keeps what it needs beside it (the connection).
  const requireMember = (socket: EditorSocket, sessionId?: string): Membership => {
    const membership = states.get(socket)?.membership;
    if (!membership) throw new DomainError("not_joined", "Join the session first");
    requireJoined(socket, sessionId ?? membership.sessionId);
    return membership;
  };

  async function leave(socket: EditorSocket) {
    const state = states.get(socket);
    const current = state?.membership;
    if (!state || !current) return;
    state.membership = undefined;
    socket.data.session = undefined;
    presences.delete(socket.id);
    lanes.revoke(current.laneEnd);
    if (current.lane) {
      dropLane(socket, current.sessionId);
      current.lane.close(LANE_CLOSE.left, "left the session");
    }
    rooms.loaded(current.sessionId)?.leave(current.connection);
    await socket.leave(sessionRoom(current.sessionId));
    if (!presenceList(deps, current.sessionId).some((p) => p.id === current.presence.id)) {
      socket.to(sessionRoom(current.sessionId)).emit("participantLeft", current.presence.id);
    }
    await rooms.releaseIfEmpty(current.sessionId);
  }

  events.on("joinSession", async (socket, request) => {
    const { sessionId, key } = typeof request === "string" ? { sessionId: request, key: undefined } : request;
    const identity = socket.data.identity;
    const selfId = identity.id;
    lobby.leave(socket.id);
    // A refused join (an unknown session, a bad link) leaves the socket where it was.
    const { admission, title, language, endedAt, isLocked } = await sessions.joinRealtime(
      selfId,
      sessionId,
      key,
    );
    await leave(socket);
    const isGuest = identity.kind === "guest";
    if (admission.kind === "lobby") {
      lobby.wait(sessionId, socket, { id: selfId, name: identity.name, isGuest }, admission.role);
      throw new DomainError("session_locked", ROLE_MESSAGES.locked);
    }
    let state = states.get(socket);
    if (!state) {
      state = { meter: new StreamMeter(), isResyncDue: false };
      states.set(socket, state);
    }
    const { role } = admission;
    const presence: Presence = { id: selfId, name: identity.name, isHost: role === "host", isGuest, role };
    const connection: RoomConnection = {
      id: socket.id,
      user: { id: selfId, name: identity.name },
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
    room.isEnded ??= endedAt !== null;
    const isNewcomer = !presenceList(deps, sessionId).some((p) => p.id === selfId);
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
        if (state.membership === membership) dropLane(socket, sessionId);
      },
    };
    const membership: Membership = { sessionId, presence, connection, laneEnd };
    state.membership = membership;
    socket.data.session = { id: sessionId, participantId: selfId, role, isHost: presence.isHost };
    presences.set(socket.id, presence);
    await socket.join(sessionRoom(sessionId));
    room.join(connection);
    if (isNewcomer) socket.to(sessionRoom(sessionId)).emit("participantJoined", presence);
    return {
      sessionId,
      self: presence,
      participants: presenceList(deps, sessionId),
      language,
      title,
      endedAt: endedAt?.toISOString() ?? null,
      laneTicket: lanes.issue(laneEnd),
      isLocked,
      waiting: role === "host" ? lobby.list(sessionId) : [],
    };
  });

  function dropLane(socket: EditorSocket, sessionId: string) {
    const members = laneMembers.get(sessionId);
    members?.delete(socket.id);
    if (members?.size === 0) laneMembers.delete(sessionId);
  }

  events.on("leaveSession", async (socket, sessionId) => {
    requireMember(socket, sessionId);
    await leave(socket);
    return null;
  });

  events.on("getParticipants", (socket, sessionId) => {
    requireMember(socket, sessionId);
    socket.emit("participantsList", presenceList(deps, sessionId));
    return undefined;
  });

  events.on("getLanguageState", async (socket, sessionId) => {
    requireMember(socket, sessionId);
    socket.emit("languageUpdate", { sessionId, language: await sessions.language(sessionId) });
    return undefined;
  });

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

  events.on("createFile", async (socket, { sessionId, path, kind, content }) => ({
    path: await changeWorkspace(socket, sessionId, (w, room) => {
      // A new file may hold up to a file's limit: a nearly full document takes none.
      if (room.isFull) throw new DomainError("limit", WORKSPACE_MESSAGES.documentTooLarge);
      return kind === "folder" ? w.createFolder(path) : w.createFile(path, content);
    }),
  }));

  events.on("renamePath", async (socket, { sessionId, from, to }) => ({
    path: await changeWorkspace(socket, sessionId, (w) => w.rename(from, to)),
  }));

  events.on("deletePath", async (socket, { sessionId, path }) => ({
    path: await changeWorkspace(socket, sessionId, (w) => w.delete(path)),
  }));

  events.on("languageUpdate", async (socket, update) => {
    requireMember(socket, update.sessionId);
    requireCan(socket, update.sessionId, "edit");
    // The language's main file exists before anyone switches to it (created the first time).
    await changeWorkspace(socket, update.sessionId, (w) => {
      try {
        w.ensureMainFile(update.language);
      } catch (error) {
        // A full workspace still switches; the editor then stays on the file it has open.
        if (!(error instanceof DomainError)) throw error;
      }
    });
    // Stored first, then announced: a late joiner reads the language everyone saw.
    await sessions.setLanguage(update.sessionId, update.language);
    socket.to(sessionRoom(update.sessionId)).emit("languageUpdate", update);
    return update;
  });

  /** Ends or reopens the session for everyone (host only); the room enforces it at once. */
  async function setEnded(socket: EditorSocket, sessionId: string, ended: boolean): Promise<SessionState> {
    requireMember(socket, sessionId);
    if (socket.data.session?.role !== "host") {
      const verb = ended ? "end" : "reopen";
      throw new DomainError("forbidden", `Only the session host can ${verb} the session`);
    }
    if (ended) socket.to(sessionRoom(sessionId)).emit("sessionEnding", { sessionId });
    const endedAt = await sessions.setEnded(sessionId, ended);
    const room = rooms.loaded(sessionId);
    if (room) room.isEnded = endedAt !== null;
    const state = { sessionId, endedAt: endedAt?.toISOString() ?? null };
    deps.io.to(sessionRoom(sessionId)).emit("sessionState", state);
    return state;
  }

  // Everyone is offered the end dialog first: a pull request can still be made from it.
  events.on("sessionEnding", (socket, { sessionId }) => setEnded(socket, sessionId, true));
  events.on("reopenSession", (socket, { sessionId }) => setEnded(socket, sessionId, false));

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
    if (kind === "sync") room.receiveSync(member.connection, message);
    else room.receiveAwareness(member.connection, message);
    return undefined;
  };
  events.on("yjsSync", (socket, message) => relay(socket, "sync", message));
  events.on("yjsAwareness", (socket, message) => relay(socket, "awareness", message));

  events.onDisconnect((socket) => {
    leave(socket).catch((error: unknown) => logger.error({ err: error }, "leaving a session failed"));
  });
}
