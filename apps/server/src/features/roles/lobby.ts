import type { GrantableRole, LobbyEntry } from "@ensemble/protocol";
import type { PresenceRegistry } from "../../realtime/presence";
import type { EditorSocket } from "../../realtime/socket";

interface Waiter {
  socket: EditorSocket;
  entry: LobbyEntry;
  /** The role their link gives them once admitted. */
  role: GrantableRole;
}

/**
 * Who waits to enter each locked session, on this process (all sockets of a session are on
 * its owner node: DESIGN decision 16). A socket waits for one session at a time and stops
 * waiting when it disconnects, joins something, or the host decides.
 */
export class Lobby {
  private readonly sessions = new Map<string, Map<string, Waiter>>();
  /** socket id → the session it waits for. */
  private readonly bySocket = new Map<string, string>();
  /** Sockets whose disconnect already takes them out of any lobby. */
  private readonly watched = new Set<string>();

  constructor(private readonly presence: PresenceRegistry) {}

  /** Puts a socket in a session's lobby and tells the host's sockets. */
  wait(sessionId: string, socket: EditorSocket, entry: LobbyEntry, role: GrantableRole): void {
    this.leave(socket.id);
    let waiters = this.sessions.get(sessionId);
    if (!waiters) {
      waiters = new Map();
      this.sessions.set(sessionId, waiters);
    }
    waiters.set(socket.id, { socket, entry, role });
    const isFirstWait = !this.watched.has(socket.id);
    this.bySocket.set(socket.id, sessionId);
    if (isFirstWait) {
      this.watched.add(socket.id);
      socket.once("disconnect", () => {
        this.watched.delete(socket.id);
        this.leave(socket.id);
      });
    }
    this.tellHosts(sessionId);
  }

  /** The socket stops waiting (it left, or asked for something else). */
  leave(socketId: string): void {
    const sessionId = this.bySocket.get(socketId);
    if (sessionId === undefined) return;
    this.bySocket.delete(socketId);
    const waiters = this.sessions.get(sessionId);
    waiters?.delete(socketId);
    if (waiters?.size === 0) this.sessions.delete(sessionId);
    this.tellHosts(sessionId);
  }

  /** Who waits, one entry per person however many tabs they opened. */
  list(sessionId: string): LobbyEntry[] {
    const seen = new Map<string, LobbyEntry>();
    for (const { entry } of this.sessions.get(sessionId)?.values() ?? []) seen.set(entry.id, entry);
    return [...seen.values()];
  }

  /**
   * Takes every socket of one person out of the lobby, with the role to admit them as (the
   * widest their tabs' links gave), or undefined when they are not waiting.
   */
  take(
    sessionId: string,
    participantId: string,
  ): { role: GrantableRole; sockets: EditorSocket[] } | undefined {
    const waiters = [...(this.sessions.get(sessionId)?.values() ?? [])].filter(
      (w) => w.entry.id === participantId,
    );
    if (waiters.length === 0) return undefined;
    for (const { socket } of waiters) this.leave(socket.id);
    const role = waiters.some((w) => w.role === "editor") ? "editor" : "viewer";
    return { role, sockets: waiters.map((w) => w.socket) };
  }

  /** Takes everyone out of the session's lobby (the session is deleted); answers their sockets. */
  close(sessionId: string): EditorSocket[] {
    const sockets = [...(this.sessions.get(sessionId)?.values() ?? [])].map((w) => w.socket);
    for (const socket of sockets) this.leave(socket.id);
    return sockets;
  }

  /** Sends the host's sockets in the session who waits now. */
  tellHosts(sessionId: string): void {
    const update = { sessionId, waiting: this.list(sessionId) };
    for (const socket of this.presence.sockets(sessionId)) {
      if (socket.data.session?.role === "host") socket.emit("lobbyUpdate", update);
    }
  }
}
