import { randomUUID } from "node:crypto";
import { CALL_LIMITS, CALL_MESSAGES, CallPeerSchema, type MediaState } from "@ensemble/protocol";
import { z } from "zod";
import type { TableMaker } from "../../cluster/index";
import { DomainError } from "../../errors";

const CallMemberSchema = z.object({
  peer: CallPeerSchema,
  /** The socket that carries it, reached on any node through the socket.io adapter. */
  socketId: z.string(),
  seenAt: z.number(),
});

/** One tab in a session's call: its peer as everyone sees it, and the socket that carries it. */
export type CallMember = z.infer<typeof CallMemberSchema>;

/** A node renews its members this often; a member not renewed for `CALL_STALE_MS` (its node died) is gone. */
export const CALL_RENEW_MS = 2_000;
export const CALL_STALE_MS = 8_000;

/**
 * Who is in each session's call, shared by every node (a Redis table in a cluster): while two
 * nodes serve a session (a handover on its way) its call stays one call, each message relayed
 * to the peer's socket wherever it is; a member whose node died drops out within
 * `CALL_STALE_MS`. A tab gets a fresh peer id each time it joins, so a reload or a reconnect
 * (to the session's new node after a handover) is a new peer and nobody waits on the old one.
 */
export class CallRegistry {
  private readonly table;
  /** socket id → the session and peer it is in the call as, on this node. */
  private readonly local = new Map<string, { sessionId: string; member: CallMember }>();
  private readonly renewals: NodeJS.Timeout;

  /** `onGone` hears of members whose node died, swept from a call this node has members in. */
  constructor(
    makeTable: TableMaker,
    private readonly onGone: (sessionId: string, member: CallMember) => void = () => {},
  ) {
    this.table = makeTable("call", CallMemberSchema, CALL_STALE_MS);
    this.renewals = setInterval(() => void this.renew().catch(() => {}), CALL_RENEW_MS);
    this.renewals.unref();
  }

  /** Adds the socket to the session's call (leaving any call it was in); throws `call_full` when it holds as many people as a mesh carries. */
  async join(
    sessionId: string,
    socketId: string,
    who: { participantId: string; name: string },
    media: MediaState,
  ): Promise<{ self: CallMember; others: CallMember[]; left?: { sessionId: string; member: CallMember } }> {
    const left = await this.leave(socketId);
    const others = await this.members(sessionId);
    if (others.length >= CALL_LIMITS.maxPeers) throw new DomainError("call_full", CALL_MESSAGES.full);
    const self: CallMember = {
      socketId,
      peer: { peerId: randomUUID(), ...who, ...media },
      seenAt: Date.now(),
    };
    this.local.set(socketId, { sessionId, member: self });
    await this.table.set(sessionId, self.peer.peerId, self);
    return { self, others, ...(left ? { left } : {}) };
  }

  /** Takes the socket out of its call; answers the member it was and the session, if any. */
  async leave(socketId: string): Promise<{ sessionId: string; member: CallMember } | undefined> {
    const mine = this.local.get(socketId);
    if (!mine) return undefined;
    this.local.delete(socketId);
    await this.table.take(mine.sessionId, mine.member.peer.peerId);
    return mine;
  }

  /** The session whose call the socket is in. */
  sessionOf(socketId: string): string | undefined {
    return this.local.get(socketId)?.sessionId;
  }

  /** The socket's membership, when it is in the call of `sessionId` (a socket is on this node). */
  memberOf(sessionId: string, socketId: string): CallMember | undefined {
    const mine = this.local.get(socketId);
    return mine?.sessionId === sessionId ? mine.member : undefined;
  }

  /** Records a change of the member's media (muted, camera, screen) for later joiners. */
  async update(sessionId: string, member: CallMember, change: Partial<MediaState>): Promise<void> {
    Object.assign(member.peer, change);
    await this.table.renew(sessionId, member.peer.peerId, { ...member, seenAt: Date.now() });
  }

  /** The peer `peerId` of the session's call, on any node. */
  peer(sessionId: string, peerId: string): Promise<CallMember | undefined> {
    return this.table.get(sessionId, peerId);
  }

  /** Everyone in the session's call, on every node. */
  async members(sessionId: string): Promise<CallMember[]> {
    return [...(await this.table.all(sessionId)).values()];
  }

  close(): void {
    clearInterval(this.renewals);
  }

  /** Says this node's members are still here, and sweeps their calls of members whose node died. */
  private async renew(): Promise<void> {
    const sessions = new Set<string>();
    for (const { sessionId, member } of this.local.values()) {
      sessions.add(sessionId);
      await this.table.renew(sessionId, member.peer.peerId, { ...member, seenAt: Date.now() });
    }
    for (const sessionId of sessions) {
      for (const gone of await this.table.sweep(sessionId)) this.onGone(sessionId, gone);
    }
  }
}
