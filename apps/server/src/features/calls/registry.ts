import { randomUUID } from "node:crypto";
import { CALL_LIMITS, CALL_MESSAGES, type CallPeer, type MediaState } from "@ensemble/protocol";
import { DomainError } from "../../errors";

/** One tab in a session's call: its peer as everyone sees it, and the socket that carries it. */
export interface CallMember {
  peer: CallPeer;
  socketId: string;
}

/**
 * Who is in each session's call, on this process (a session's sockets all reach one node:
 * DESIGN decision 16). A tab gets a fresh peer id each time it joins, so a reload or a
 * reconnect is a new peer and nobody waits on the old one.
 */
export class CallRegistry {
  private readonly calls = new Map<string, Map<string, CallMember>>();
  /** socket id → the session whose call it is in. */
  private readonly bySocket = new Map<string, string>();

  /** Adds the socket to the session's call (leaving any call it was in); throws `call_full` when it holds as many people as a mesh carries. */
  join(
    sessionId: string,
    socketId: string,
    who: { participantId: string; name: string },
    media: MediaState,
  ): { self: CallMember; others: CallMember[] } {
    this.leave(socketId);
    const call = this.calls.get(sessionId) ?? new Map<string, CallMember>();
    if (call.size >= CALL_LIMITS.maxPeers) throw new DomainError("call_full", CALL_MESSAGES.full);
    const self: CallMember = { socketId, peer: { peerId: randomUUID(), ...who, ...media } };
    const others = [...call.values()];
    call.set(self.peer.peerId, self);
    this.calls.set(sessionId, call);
    this.bySocket.set(socketId, sessionId);
    return { self, others };
  }

  /** Takes the socket out of its call; answers the member it was and the session, if any. */
  leave(socketId: string): { sessionId: string; member: CallMember } | undefined {
    const sessionId = this.bySocket.get(socketId);
    if (sessionId === undefined) return undefined;
    this.bySocket.delete(socketId);
    const call = this.calls.get(sessionId);
    const member = call && [...call.values()].find((m) => m.socketId === socketId);
    if (!call || !member) return undefined;
    call.delete(member.peer.peerId);
    if (call.size === 0) this.calls.delete(sessionId);
    return { sessionId, member };
  }

  /** The session whose call the socket is in. */
  sessionOf(socketId: string): string | undefined {
    return this.bySocket.get(socketId);
  }

  /** The socket's membership, when it is in the call of `sessionId`. */
  memberOf(sessionId: string, socketId: string): CallMember | undefined {
    if (this.bySocket.get(socketId) !== sessionId) return undefined;
    return [...(this.calls.get(sessionId)?.values() ?? [])].find((m) => m.socketId === socketId);
  }

  /** The peer `peerId` of the session's call. */
  peer(sessionId: string, peerId: string): CallMember | undefined {
    return this.calls.get(sessionId)?.get(peerId);
  }

  members(sessionId: string): CallMember[] {
    return [...(this.calls.get(sessionId)?.values() ?? [])];
  }
}
