import {
  type GrantableRole,
  GrantableRoleSchema,
  type LobbyEntry,
  LobbyEntrySchema,
} from "@ensemble/protocol";
import { z } from "zod";
import type { TableMaker } from "../../cluster/index";
import type { PresenceRegistry } from "../../realtime/presence";
import { hostRoom } from "../../realtime/session";
import type { EditorServer, EditorSocket } from "../../realtime/socket";

/** One person waiting at a session's door, as every node sees it. */
const WaitingSchema = z.object({
  entry: LobbyEntrySchema,
  /** The role their link gives them once admitted (the widest of their tabs'). */
  role: GrantableRoleSchema,
  /** When they started waiting: the host's list is in this order, kept across a handover. */
  since: z.number(),
  seenAt: z.number(),
});
/** A node renews its waiting people this often; a row not renewed for `LOBBY_STALE_MS` is gone. */
export const LOBBY_RENEW_MS = 2_000;
export const LOBBY_STALE_MS = 8_000;

/**
 * How long someone the host turned away is turned away again at once when they knock, without
 * asking the host: a refused guest reloading the page cannot keep ringing the host's bell.
 */
export const REFUSED_MS = 10 * 60_000;
const RefusalSchema = z.object({ seenAt: z.number() });

/** The room of one person's waiting sockets in one session, on every node. */
export const waitRoom = (sessionId: string, participantId: string) => `lobby:${sessionId}:${participantId}`;

/**
 * Disconnects the server caused (a handover closing the connection, a node draining): the
 * person comes back through the balancer to another node, so their place in the lobby stays
 * until the renewals stop.
 */
const SERVER_CLOSES = new Set(["forced close", "server shutting down", "forced server close"]);

interface LocalWaiter {
  sessionId: string;
  socket: EditorSocket;
  entry: LobbyEntry;
  role: GrantableRole;
}

/**
 * Who waits to enter each locked session. The list is shared by every node (a Redis table in a
 * cluster), so a handover or a node's death loses nobody's place: the host's new node lists
 * them, admits or refuses them, even while they are on another node or reconnecting. The
 * sockets that wait are this node's (each in the room `waitRoom`, which the decision reaches
 * wherever they are); a socket waits for one session at a time and stops when it disconnects,
 * joins something, or the host decides.
 */
export class Lobby {
  private readonly table;
  /** Who the host turned away lately, per session (every node's). */
  private readonly refusals;
  /** socket id → what it waits for, on this node. */
  private readonly local = new Map<string, LocalWaiter>();
  /** Sockets whose disconnect already takes them out of any lobby. */
  private readonly watched = new Set<string>();
  private readonly renewals: NodeJS.Timeout;

  constructor(
    private readonly io: EditorServer,
    private readonly presence: PresenceRegistry,
    makeTable: TableMaker,
  ) {
    this.table = makeTable("lobby", WaitingSchema, LOBBY_STALE_MS);
    this.refusals = makeTable("lobby-refused", RefusalSchema, REFUSED_MS);
    this.renewals = setInterval(() => void this.renew().catch(() => {}), LOBBY_RENEW_MS);
    this.renewals.unref();
  }

  /** Puts a socket in a session's lobby (keeping the person's place) and tells the hosts. */
  async wait(sessionId: string, socket: EditorSocket, entry: LobbyEntry, role: GrantableRole): Promise<void> {
    await this.leave(socket.id);
    this.local.set(socket.id, { sessionId, socket, entry, role });
    await socket.join(waitRoom(sessionId, entry.id));
    if (!this.watched.has(socket.id)) {
      this.watched.add(socket.id);
      socket.once("disconnect", (reason) => {
        this.watched.delete(socket.id);
        void this.gone(socket.id, reason).catch(() => {});
      });
    }
    const before = await this.table.get(sessionId, entry.id);
    const widest =
      before?.role === "editor" || this.roleOf(sessionId, entry.id) === "editor" ? "editor" : role;
    const now = Date.now();
    await this.table.set(sessionId, entry.id, {
      entry,
      role: widest,
      since: before?.since ?? now,
      seenAt: now,
    });
    await this.tellHosts(sessionId);
  }

  /** The socket stops waiting (it left, or asked for something else); the person too, if it was their last. */
  async leave(socketId: string): Promise<void> {
    const waiter = this.forget(socketId);
    if (!waiter) return;
    const { sessionId, entry } = waiter;
    if (this.roleOf(sessionId, entry.id) !== undefined) return;
    if (await this.table.take(sessionId, entry.id)) await this.tellHosts(sessionId);
  }

  /**
   * The host turns someone away: out of the lobby, and their knocks for `REFUSED_MS` are
   * refused at once. False when they were not waiting.
   */
  async refuse(sessionId: string, participantId: string): Promise<boolean> {
    if (!(await this.take(sessionId, participantId))) return false;
    await this.refusals.sweep(sessionId);
    await this.refusals.set(sessionId, participantId, { seenAt: Date.now() });
    return true;
  }

  /** Whether the host turned this person away in the last `REFUSED_MS`. */
  async wasRefused(sessionId: string, participantId: string): Promise<boolean> {
    return (await this.refusals.get(sessionId, participantId)) !== undefined;
  }

  /** Who waits, in the order they came, one entry per person however many tabs they opened. */
  async list(sessionId: string): Promise<LobbyEntry[]> {
    const rows = [...(await this.table.all(sessionId)).values()];
    return rows.sort((a, b) => a.since - b.since).map((row) => row.entry);
  }

  /**
   * Takes one person out of the lobby, with the role to admit them as, or undefined when they
   * are not waiting. Their sockets, on any node, are reached through `waitRoom`.
   */
  async take(sessionId: string, participantId: string): Promise<{ role: GrantableRole } | undefined> {
    const row = await this.table.take(sessionId, participantId);
    if (!row) return undefined;
    // Their sockets stay in `waitRoom` to hear the decision; each leaves it as it joins again
    // or disconnects (a renewal never brings a taken row back).
    await this.tellHosts(sessionId);
    return { role: row.role };
  }

  /**
   * Takes everyone out of the session's lobby (the session is deleted), on every node; answers
   * the rooms of their waiting sockets, for the caller to tell them.
   */
  async closeSession(sessionId: string): Promise<string[]> {
    for (const [socketId, waiter] of this.local) {
      if (waiter.sessionId === sessionId) this.local.delete(socketId);
    }
    const rooms: string[] = [];
    for (const participantId of (await this.table.all(sessionId)).keys()) {
      await this.table.take(sessionId, participantId);
      rooms.push(waitRoom(sessionId, participantId));
    }
    return rooms;
  }

  /** This node's sockets waiting for the session (a handover sends them to the new owner). */
  sockets(sessionId: string): EditorSocket[] {
    return [...this.local.values()].filter((w) => w.sessionId === sessionId).map((w) => w.socket);
  }

  /** Sends the session's host sockets, on every node, who waits now. */
  async tellHosts(sessionId: string): Promise<void> {
    this.io.to(hostRoom(sessionId)).emit("lobbyUpdate", { sessionId, waiting: await this.list(sessionId) });
  }

  /** Stops renewing this node's waiting people (the server is closing). */
  stop(): void {
    clearInterval(this.renewals);
  }

  /** A waiting socket disconnected: the person leaves, unless the server closed it (see SERVER_CLOSES). */
  private async gone(socketId: string, reason: string): Promise<void> {
    if (SERVER_CLOSES.has(reason)) this.forget(socketId);
    else await this.leave(socketId);
  }

  private forget(socketId: string): LocalWaiter | undefined {
    const waiter = this.local.get(socketId);
    if (!waiter) return undefined;
    this.local.delete(socketId);
    void waiter.socket.leave(waitRoom(waiter.sessionId, waiter.entry.id));
    return waiter;
  }

  /** The widest role among this node's sockets of one person waiting (undefined: none waits here). */
  private roleOf(sessionId: string, participantId: string): GrantableRole | undefined {
    let role: GrantableRole | undefined;
    for (const w of this.local.values()) {
      if (w.sessionId !== sessionId || w.entry.id !== participantId) continue;
      if (w.role === "editor" || role === undefined) role = w.role;
    }
    return role;
  }

  /**
   * Says this node's waiting people still wait (a row whose node died goes stale), and tells
   * this node's hosts when someone's row went stale.
   */
  private async renew(): Promise<void> {
    for (const sessionId of this.presence.hostedHere()) {
      if ((await this.table.sweep(sessionId)).length > 0) await this.tellHosts(sessionId);
    }
    const people = new Map<string, { sessionId: string; entry: LobbyEntry }>();
    for (const w of this.local.values()) people.set(`${w.sessionId} ${w.entry.id}`, w);
    for (const { sessionId, entry } of people.values()) {
      const row = await this.table.get(sessionId, entry.id);
      if (row) await this.table.renew(sessionId, entry.id, { ...row, seenAt: Date.now() });
    }
  }
}
