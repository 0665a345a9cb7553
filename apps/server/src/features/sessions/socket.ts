import {
  type GrantableRole,
  type Language,
  type LobbyEntry,
  ROLE_MESSAGES,
  type SessionState,
} from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { Logger } from "../../logger";
import type { SocketEvents } from "../../realtime/handle";
import { type PresenceRegistry, presenceOf } from "../../realtime/presence";
import { requireCan, requireJoined, sessionRoom } from "../../realtime/session";
import type { EditorServer, EditorSocket } from "../../realtime/socket";
import type { SessionService } from "./service";

/** A session's live document, as joining, leaving, ending and a language switch need it (collab). */
export interface SessionDocuments {
  /**
   * Loads the session's document (`isEnded`: the database's word, kept if it is loaded already)
   * and seats the socket at it; returns the ticket of the socket's Yjs lane. `sync` once the
   * socket entered the session.
   */
  seat(socket: EditorSocket, sessionId: string, isEnded: boolean): Promise<string>;
  /** Starts syncing a seated socket's document. */
  sync(socket: EditorSocket): void;
  /** Takes a leaving socket away from the document, its lane closed; the session it sat in, if any. */
  unseat(socket: EditorSocket): string | undefined;
  /** Unloads the session's document when nobody is left at it. */
  release(sessionId: string): Promise<void>;
  /** Refuses edits of the loaded document from now on, or allows them again. */
  setEnded(sessionId: string, isEnded: boolean): void;
  /** The file change a language switch makes: the language's main file, created when missing. */
  ensureMainFile(socket: EditorSocket, sessionId: string, language: Language): Promise<void>;
}

/** Who waits to enter locked sessions (the roles feature's lobby). */
export interface SessionLobby {
  wait(sessionId: string, socket: EditorSocket, entry: LobbyEntry, role: GrantableRole): Promise<void>;
  leave(socketId: string): Promise<void>;
  list(sessionId: string): Promise<LobbyEntry[]>;
  /** Whether the host turned this person away lately. */
  wasRefused(sessionId: string, participantId: string): Promise<boolean>;
  /** Takes everyone out of the session's lobby, on every node; answers their waiting sockets' rooms. */
  closeSession(sessionId: string): Promise<string[]>;
}

export interface SessionSocketDeps {
  io: EditorServer;
  events: SocketEvents;
  sessions: SessionService;
  presence: PresenceRegistry;
  documents: SessionDocuments;
  lobby: SessionLobby;
  logger: Logger;
}

/** What the host's REST calls (My sessions) do to a session's live sockets on this node. */
export interface SessionControl {
  /**
   * Ends (everyone else is offered the end dialog first) or reopens the session for everyone,
   * its document enforcing it at once. The caller checks that the host asks.
   */
  setEnded(sessionId: string, ended: boolean, by?: EditorSocket): Promise<SessionState>;
  /**
   * Tells everyone in the session that it is deleted and takes their sockets out of it, its
   * document unloaded, before the caller deletes what is stored.
   */
  closeForDeletion(sessionId: string): Promise<void>;
}

/**
 * A session's own events: join, leave, who is here, its language and settings, ending and
 * reopening it.
 * A socket is in at most one session; until it has joined, every message about a session is
 * refused and nothing of a session reaches it.
 */
export function registerSessionEvents(deps: SessionSocketDeps): SessionControl {
  const { events, sessions, presence, documents, lobby, logger } = deps;

  async function leave(socket: EditorSocket) {
    const sessionId = documents.unseat(socket);
    if (sessionId === undefined) return;
    const selfId = socket.data.identity.id;
    await presence.exit(socket, sessionId);
    if (!presence.isHere(sessionId, selfId)) {
      socket.to(sessionRoom(sessionId)).emit("participantLeft", selfId);
    }
    await documents.release(sessionId);
  }

  events.on("joinSession", async (socket, request) => {
    const { sessionId, key } = typeof request === "string" ? { sessionId: request, key: undefined } : request;
    const identity = socket.data.identity;
    const selfId = identity.id;
    await lobby.leave(socket.id);
    // A refused join (an unknown session, a bad link) leaves the socket where it was.
    const { admission, title, language, endedAt, isLocked } = await sessions.joinRealtime(
      selfId,
      sessionId,
      key,
    );
    await leave(socket);
    const isGuest = identity.kind === "guest";
    if (admission.kind === "lobby") {
      // Turned away lately: told again at once, and the host is not asked again.
      if (await lobby.wasRefused(sessionId, selfId))
        throw new DomainError("forbidden", ROLE_MESSAGES.refused);
      await lobby.wait(sessionId, socket, { id: selfId, name: identity.name, isGuest }, admission.role);
      throw new DomainError("session_locked", ROLE_MESSAGES.locked);
    }
    const { role } = admission;
    const laneTicket = await documents.seat(socket, sessionId, endedAt !== null);
    const isNewcomer = !presence.isHere(sessionId, selfId);
    const self = presenceOf(socket, await presence.enter(socket, sessionId, role));
    documents.sync(socket);
    if (isNewcomer) socket.to(sessionRoom(sessionId)).emit("participantJoined", self);
    return {
      sessionId,
      self,
      participants: presence.list(sessionId),
      language,
      title,
      endedAt: endedAt?.toISOString() ?? null,
      laneTicket,
      isLocked,
      waiting: role === "host" ? await lobby.list(sessionId) : [],
    };
  });

  events.on("leaveSession", async (socket, sessionId) => {
    requireJoined(socket, sessionId);
    await leave(socket);
    return null;
  });

  events.on("getParticipants", (socket, sessionId) => {
    requireJoined(socket, sessionId);
    socket.emit("participantsList", presence.list(sessionId));
    return undefined;
  });

  events.on("getLanguageState", async (socket, sessionId) => {
    requireJoined(socket, sessionId);
    socket.emit("languageUpdate", { sessionId, language: await sessions.language(sessionId) });
    return undefined;
  });

  events.on("languageUpdate", async (socket, update) => {
    requireCan(socket, update.sessionId, "edit");
    // The language's main file exists before anyone switches to it (created the first time).
    await documents.ensureMainFile(socket, update.sessionId, update.language);
    // Stored first, then announced: a late joiner reads the language everyone saw.
    await sessions.setLanguage(update.sessionId, update.language);
    socket.to(sessionRoom(update.sessionId)).emit("languageUpdate", update);
    return update;
  });

  events.on("getSessionSettings", async (socket, { sessionId }) => {
    requireJoined(socket, sessionId);
    return sessions.settings(sessionId);
  });

  // Host only. Stored first, then told to everyone: a late joiner or a reconnect asks and gets the same.
  events.on("setSessionSettings", async (socket, change) => {
    requireCan(socket, change.sessionId, "manage");
    const settings = await sessions.changeSettings(change);
    deps.io.to(sessionRoom(change.sessionId)).emit("sessionSettings", settings);
    return settings;
  });

  async function setEnded(sessionId: string, ended: boolean, by?: EditorSocket): Promise<SessionState> {
    // Everyone is offered the end dialog first: a pull request can still be made from it.
    if (ended)
      (by ? by.to(sessionRoom(sessionId)) : deps.io.to(sessionRoom(sessionId))).emit("sessionEnding", {
        sessionId,
      });
    const endedAt = await sessions.setEnded(sessionId, ended);
    documents.setEnded(sessionId, endedAt !== null);
    const state = { sessionId, endedAt: endedAt?.toISOString() ?? null };
    deps.io.to(sessionRoom(sessionId)).emit("sessionState", state);
    return state;
  }

  /** Host only, checked on the socket's role now. */
  function setEndedBySocket(socket: EditorSocket, sessionId: string, ended: boolean): Promise<SessionState> {
    const session = requireJoined(socket, sessionId);
    if (session.role !== "host") {
      const verb = ended ? "end" : "reopen";
      throw new DomainError("forbidden", `Only the session host can ${verb} the session`);
    }
    return setEnded(sessionId, ended, socket);
  }

  events.on("sessionEnding", (socket, { sessionId }) => setEndedBySocket(socket, sessionId, true));
  events.on("reopenSession", (socket, { sessionId }) => setEndedBySocket(socket, sessionId, false));

  events.onDisconnect((socket) => {
    leave(socket).catch((error: unknown) => logger.error({ err: error }, "leaving a session failed"));
  });

  return {
    setEnded,
    async closeForDeletion(sessionId) {
      // Through the adapter: in a cluster the session's sockets are all on its owner node, where
      // the balancer sends this request, but the event costs nothing to send everywhere.
      deps.io.to(sessionRoom(sessionId)).emit("sessionDeleted", { sessionId });
      // Those at a locked session's door are not in its room: they are told one by one.
      const waiting = await lobby.closeSession(sessionId);
      if (waiting.length > 0) deps.io.to(waiting).emit("sessionDeleted", { sessionId });
      for (const socket of presence.sockets(sessionId)) await leave(socket);
    },
  };
}
