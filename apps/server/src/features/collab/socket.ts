import { isSyncPart, LANE_AWARENESS, LANE_CLOSE, LANE_SYNC, type LaneKind, toWire } from "@ensemble/collab";
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

/**
 * What collab remembers of one socket, from its first join until it disconnects: its Yjs
 * messages' bucket (itself, one object a socket, not two), kept across rejoins so that leaving
 * does not refill it.
 */
class SocketState extends StreamMeter {
  /** Where it sits now. */
  seat: Seat | undefined = undefined;
  /** A resync is asked for once the bucket allows again (a dropped update leaves a gap). */
  isResyncDue = false;
}

/** What a seat needs of the feature: the session's lanes, and the one way in for Yjs messages. */
interface SeatHost {
  laneMembers: Map<string, Map<string, Lane>>;
  /** The bound on bytes being joined from parts, shared by every socket. */
  assembling: AssemblyBudget;
  relay(socket: EditorSocket, kind: "sync" | "awareness", message: Uint8Array): void;
}

/**
 * A socket's place at one session's document: its connection to the room and the end its lane
 * opens. One object with methods, not a closure per callback: those cost about 0.6 kB a client
 * (issue 32).
 */
class Seat implements RoomConnection, LaneEnd {
  /** The Yjs lane, once the client opened it; until then Yjs messages go over socket.io. */
  lane: Lane | undefined = undefined;
  /**
   * Joins its sync messages that come in parts (a large resync), made for its first part: most
   * seats never get one.
   */
  private parts: PartAssembler | undefined = undefined;

  constructor(
    readonly socket: EditorSocket,
    readonly sessionId: string,
    /** The room it was seated at: its first sync joins it there. */
    readonly room: Room,
    private readonly state: SocketState,
    private readonly host: SeatHost,
  ) {}

  get id(): string {
    return this.socket.id;
  }

  get user(): { id: string; name: string } {
    return this.socket.data.identity;
  }

  /** Read per message: the host may change the role while the socket stays. */
  isReadOnly(): boolean {
    return this.socket.data.session?.role === "viewer";
  }

  sendSync(message: Uint8Array): void {
    if (this.lane) this.lane.send(LANE_SYNC, message);
    else this.socket.emit("yjsSync", toWire(message));
  }

  sendAwareness(message: Uint8Array): void {
    if (this.lane) this.lane.send(LANE_AWARENESS, message);
    else this.socket.emit("yjsAwareness", toWire(message));
  }

  open(lane: Lane): boolean {
    if (this.state.seat !== this || this.lane) return false;
    this.lane = lane;
    let members = this.host.laneMembers.get(this.sessionId);
    if (!members) {
      members = new Map();
      this.host.laneMembers.set(this.sessionId, members);
    }
    members.set(this.socket.id, lane);
    return true;
  }

  receive(kind: LaneKind, message: Uint8Array): void {
    this.host.relay(this.socket, kind === LANE_SYNC ? "sync" : "awareness", message);
  }

  closed(lane: Lane): void {
    if (this.lane !== lane) return;
    this.lane = undefined;
    // Its parts can no longer all come: the resync over socket.io starts a new stream.
    this.dropParts();
    if (this.state.seat === this) this.dropLane();
  }

  /** The sync message to handle for `message` (see `PartAssembler.receive`); throws a refusal. */
  assemble(message: Uint8Array): Uint8Array | undefined {
    if (!this.parts) {
      if (!isSyncPart(message)) return message;
      this.parts = new PartAssembler(this.host.assembling);
    }
    return this.parts.receive(message);
  }

  /** Drops the part stream in progress: its carrier closed, or the socket left. */
  dropParts(): void {
    this.parts?.drop();
  }

  /** Takes its lane out of the session's broadcasts. */
  dropLane(): void {
    const members = this.host.laneMembers.get(this.sessionId);
    members?.delete(this.socket.id);
    if (members?.size === 0) this.host.laneMembers.delete(this.sessionId);
  }
}

/**
 * The live document's events: Yjs messages and file operations, from sockets the sessions
 * feature seated at a session's document (`SessionDocuments`, returned); what a socket sends
 * before it is seated is refused.
 */
export function registerCollabEvents(deps: CollabSocketDeps): SessionDocuments {
  const { events, rooms, lanes, laneMembers, assembling } = deps;
  const states = new WeakMap<EditorSocket, SocketState>();

  // The membership check is realtime's; collab keeps what it needs beside it (the seat).
  const requireMember = (socket: EditorSocket, sessionId?: string): Seat => {
    const seat = states.get(socket)?.seat;
    if (!seat) throw new DomainError("not_joined", "Join the session first");
    requireJoined(socket, sessionId ?? seat.sessionId);
    return seat;
  };

  function unseat(socket: EditorSocket): string | undefined {
    const state = states.get(socket);
    const current = state?.seat;
    if (!state || !current) return undefined;
    state.seat = undefined;
    current.dropParts();
    lanes.revoke(current);
    if (current.lane) {
      current.dropLane();
      current.lane.close(LANE_CLOSE.left, "left the session");
    }
    rooms.loaded(current.sessionId)?.leave(current);
    return current.sessionId;
  }

  async function seat(socket: EditorSocket, sessionId: string, isEnded: boolean): Promise<string> {
    let state = states.get(socket);
    if (!state) {
      state = new SocketState();
      states.set(socket, state);
    }
    const room = await rooms.open(sessionId);
    // The database says whether the session is ended when the room is loaded; from then the
    // room knows (a later join's read could predate an end or a reopen that raced with it).
    room.isEnded ??= isEnded;
    const seated = new Seat(socket, sessionId, room, state, host);
    state.seat = seated;
    return lanes.issue(seated);
  }

  /** Joins the seated socket to the room it was seated at (its first sync). */
  function sync(socket: EditorSocket): void {
    const seat = states.get(socket)?.seat;
    seat?.room.join(seat);
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
      return w.restore(path, files, folders);
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
  const resyncLater = (state: SocketState, seat: Seat) => {
    if (state.isResyncDue) return;
    state.isResyncDue = true;
    setTimeout(() => {
      state.isResyncDue = false;
      if (state.seat === seat) rooms.loaded(seat.sessionId)?.askForMissing(seat);
    }, 1000).unref();
  };
  // Synchronous on purpose: see RoomRegistry.loaded. The lane's messages come here too.
  const relay = (socket: EditorSocket, kind: "sync" | "awareness", message: Uint8Array) => {
    const seat = requireMember(socket);
    // A member's socket has its state (made by the join).
    const state = states.get(socket) as SocketState;
    if (!state.take()) {
      if (kind === "sync") {
        rooms.counts.deferred += 1;
        resyncLater(state, seat);
      }
      throw new DomainError("rate_limited", STREAM_REFUSAL);
    }
    const room = rooms.loaded(seat.sessionId);
    if (!room) throw new DomainError("not_joined", "Join the session first");
    if (kind === "awareness") {
      room.receiveAwareness(seat, message);
      return undefined;
    }
    let whole: Uint8Array | undefined;
    try {
      whole = seat.assemble(message);
    } catch (error) {
      // Counted as the room counts a whole message: a refused stream is a refused update, and
      // one of too many large messages joined at once is asked for again later (deferred).
      if (error instanceof DomainError && error.code === "rate_limited") {
        rooms.counts.deferred += 1;
        resyncLater(state, seat);
      } else rooms.counts.refused += 1;
      throw error;
    }
    if (whole) room.receiveSync(seat, whole);
    return undefined;
  };
  const host: SeatHost = { laneMembers, assembling, relay };
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
