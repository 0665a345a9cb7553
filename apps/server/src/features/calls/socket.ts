import { CALL_MESSAGES, type IceServer } from "@ensemble/protocol";
import type { Limiter } from "../../limiter";
import type { Logger } from "../../logger";
import { handle, SocketEventError } from "../../realtime/handle";
import { requireJoined, sessionRoom } from "../../realtime/session";
import type { EditorServer, EditorSocket } from "../../realtime/socket";
import { CallFullError, type CallMember, type CallRegistry } from "./registry";

export interface CallSocketDeps {
  io: EditorServer;
  calls: CallRegistry;
  iceServers: IceServer[];
  /** Signalling messages per socket (shared by all sockets of this process). */
  limiter: Limiter;
  logger: Logger;
}

/**
 * The call's events on one socket. Only a socket that joined the session may join its call;
 * every message is relayed only to a peer of the same call, with the sender's real peer id
 * (whatever the browser claims), within size limits (the protocol's schemas) and a rate.
 */
export function registerCallSocket(socket: EditorSocket, deps: CallSocketDeps) {
  const { io, calls, limiter, logger } = deps;

  /** The sender's membership of the session's call; refuses outsiders and floods. */
  async function sender(sessionId: string): Promise<CallMember> {
    requireJoined(socket, sessionId);
    if ((await limiter.take(socket.id)) > 0)
      throw new SocketEventError("rate_limited", CALL_MESSAGES.tooMany);
    const member = calls.memberOf(sessionId, socket.id);
    if (!member) throw new SocketEventError("forbidden", CALL_MESSAGES.notInCall);
    return member;
  }

  /** The receiver of a relayed message: a peer of the same call, never one elsewhere. */
  function receiver(sessionId: string, peerId: string): CallMember {
    const member = calls.peer(sessionId, peerId);
    if (!member) throw new SocketEventError("not_found", CALL_MESSAGES.peerGone);
    return member;
  }

  handle(socket, "rtcReady", logger, ({ sessionId, media }) => {
    const session = requireJoined(socket, sessionId);
    let joined: ReturnType<CallRegistry["join"]>;
    try {
      const who = { participantId: session.participantId, name: socket.data.identity.name };
      joined = calls.join(sessionId, socket.id, who, media);
    } catch (error) {
      if (error instanceof CallFullError) throw new SocketEventError("call_full", CALL_MESSAGES.full);
      throw error;
    }
    for (const other of joined.others)
      io.to(other.socketId).emit("rtcNewParticipant", { sessionId, peer: joined.self.peer });
    return {
      peerId: joined.self.peer.peerId,
      peers: joined.others.map((m) => m.peer),
      iceServers: deps.iceServers,
    };
  });

  handle(socket, "rtcLeave", logger, ({ sessionId }) => {
    requireJoined(socket, sessionId);
    leaveCall(io, calls, socket.id);
    return null;
  });

  handle(socket, "rtcOffer", logger, async ({ sessionId, receiverId, sdp }) => {
    const from = await sender(sessionId);
    const to = receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcOffer", { sessionId, senderId: from.peer.peerId, sdp });
    return undefined;
  });

  handle(socket, "rtcAnswer", logger, async ({ sessionId, receiverId, sdp }) => {
    const from = await sender(sessionId);
    const to = receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcAnswer", { sessionId, senderId: from.peer.peerId, sdp });
    return undefined;
  });

  handle(socket, "rtcIceCandidate", logger, async ({ sessionId, receiverId, candidate }) => {
    const from = await sender(sessionId);
    const to = receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcIceCandidate", { sessionId, senderId: from.peer.peerId, candidate });
    return undefined;
  });

  handle(socket, "rtcRequestConnection", logger, async ({ sessionId, targetId }) => {
    const from = await sender(sessionId);
    const to = receiver(sessionId, targetId);
    io.to(to.socketId).emit("rtcRequestConnection", { sessionId, requesterId: from.peer.peerId });
    return undefined;
  });

  /** Records the sender's media change and tells the rest of the session. */
  async function announce<
    K extends "audioToggled" | "videoToggled" | "screenSharingStarted" | "screenSharingEnded",
  >(event: K, sessionId: string, change: Partial<CallMember["peer"]>, extra: object) {
    const from = await sender(sessionId);
    Object.assign(from.peer, change);
    const payload = { sessionId, userId: from.peer.participantId, peerId: from.peer.peerId, ...extra };
    // The catalogue types each event's payload; these four share their stamped fields.
    (socket.to(sessionRoom(sessionId)).emit as (e: K, p: typeof payload) => void)(event, payload);
    return undefined;
  }

  handle(socket, "audioToggled", logger, ({ sessionId, isMuted }) =>
    announce("audioToggled", sessionId, { isMuted }, { isMuted }),
  );
  handle(socket, "videoToggled", logger, ({ sessionId, isVideoOff }) =>
    announce("videoToggled", sessionId, { isVideoOff }, { isVideoOff }),
  );
  handle(socket, "screenSharingStarted", logger, ({ sessionId }) =>
    announce("screenSharingStarted", sessionId, { isScreenSharing: true }, {}),
  );
  handle(socket, "screenSharingEnded", logger, ({ sessionId }) =>
    announce("screenSharingEnded", sessionId, { isScreenSharing: false }, {}),
  );
}

/** Takes a socket out of its call and tells the peers that stay. */
export function leaveCall(io: EditorServer, calls: CallRegistry, socketId: string): void {
  const left = calls.leave(socketId);
  if (!left) return;
  const { sessionId, member } = left;
  for (const other of calls.members(sessionId))
    io.to(other.socketId).emit("rtcParticipantLeft", { sessionId, peerId: member.peer.peerId });
}
