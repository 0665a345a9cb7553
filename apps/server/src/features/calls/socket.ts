import { CALL_MESSAGES, type IceServer } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { Limiter } from "../../limiter";
import type { SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireJoined, sessionRoom } from "../../realtime/session";
import type { EditorServer, EditorSocket } from "../../realtime/socket";
import type { CallMember, CallRegistry } from "./registry";
import { type TurnConfig, turnCredentials } from "./turn";

/** How browsers reach each other: the configured ICE servers, and a TURN relay whose credentials each participant gets its own of. */
export interface IceConfig {
  iceServers: IceServer[];
  turn?: TurnConfig | undefined;
}

export interface CallSocketDeps {
  io: EditorServer;
  events: SocketEvents;
  calls: CallRegistry;
  ice: IceConfig;
  /** Signalling messages per socket (shared by all sockets of this process). */
  limiter: Limiter;
}

/**
 * The call's events. Only a socket that joined the session may join its call;
 * every message is relayed only to a peer of the same call, with the sender's real peer id
 * (whatever the browser claims), within size limits (the protocol's schemas) and a rate.
 */
export function registerCallEvents(deps: CallSocketDeps) {
  const { io, events, calls, limiter } = deps;

  /** The sender's membership of the session's call; refuses outsiders and floods. */
  async function sender(socket: EditorSocket, sessionId: string): Promise<CallMember> {
    requireJoined(socket, sessionId);
    if ((await limiter.take(socket.id)) > 0) throw new DomainError("rate_limited", CALL_MESSAGES.tooMany);
    const member = calls.memberOf(sessionId, socket.id);
    if (!member) throw new DomainError("forbidden", CALL_MESSAGES.notInCall);
    return member;
  }

  /** The receiver of a relayed message: a peer of the same call (on any node), never one elsewhere. */
  async function receiver(sessionId: string, peerId: string): Promise<CallMember> {
    const member = await calls.peer(sessionId, peerId);
    if (!member) throw new DomainError("not_found", CALL_MESSAGES.peerGone);
    return member;
  }

  events.on("rtcReady", async (socket, { sessionId, media }) => {
    const actor = actorOf(socket, sessionId);
    const joined = await calls.join(
      sessionId,
      socket.id,
      { participantId: actor.id, name: actor.name },
      media,
    );
    if (joined.left) await tellLeft(io, calls, joined.left);
    for (const other of joined.others)
      io.to(other.socketId).emit("rtcNewParticipant", { sessionId, peer: joined.self.peer });
    return {
      peerId: joined.self.peer.peerId,
      peers: joined.others.map((m) => m.peer),
      iceServers: deps.ice.turn
        ? [...deps.ice.iceServers, turnCredentials(deps.ice.turn, actor.id)]
        : deps.ice.iceServers,
    };
  });

  events.on("rtcLeave", async (socket, { sessionId }) => {
    requireJoined(socket, sessionId);
    await leaveCall(io, calls, socket.id);
    return null;
  });

  events.on("rtcOffer", async (socket, { sessionId, receiverId, sdp }) => {
    const from = await sender(socket, sessionId);
    const to = await receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcOffer", { sessionId, senderId: from.peer.peerId, sdp });
    return undefined;
  });

  events.on("rtcAnswer", async (socket, { sessionId, receiverId, sdp }) => {
    const from = await sender(socket, sessionId);
    const to = await receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcAnswer", { sessionId, senderId: from.peer.peerId, sdp });
    return undefined;
  });

  events.on("rtcIceCandidate", async (socket, { sessionId, receiverId, candidate }) => {
    const from = await sender(socket, sessionId);
    const to = await receiver(sessionId, receiverId);
    io.to(to.socketId).emit("rtcIceCandidate", { sessionId, senderId: from.peer.peerId, candidate });
    return undefined;
  });

  events.on("rtcRequestConnection", async (socket, { sessionId, targetId }) => {
    const from = await sender(socket, sessionId);
    const to = await receiver(sessionId, targetId);
    io.to(to.socketId).emit("rtcRequestConnection", { sessionId, requesterId: from.peer.peerId });
    return undefined;
  });

  /** Records the sender's media change and tells the rest of the session. */
  async function announce<
    K extends "audioToggled" | "videoToggled" | "screenSharingStarted" | "screenSharingEnded",
  >(socket: EditorSocket, event: K, sessionId: string, change: Partial<CallMember["peer"]>, extra: object) {
    const from = await sender(socket, sessionId);
    await calls.update(sessionId, from, change);
    const payload = { sessionId, userId: from.peer.participantId, peerId: from.peer.peerId, ...extra };
    // The catalogue types each event's payload; these four share their stamped fields.
    (socket.to(sessionRoom(sessionId)).emit as (e: K, p: typeof payload) => void)(event, payload);
    return undefined;
  }

  events.on("audioToggled", (socket, { sessionId, isMuted }) =>
    announce(socket, "audioToggled", sessionId, { isMuted }, { isMuted }),
  );
  events.on("videoToggled", (socket, { sessionId, isVideoOff }) =>
    announce(socket, "videoToggled", sessionId, { isVideoOff }, { isVideoOff }),
  );
  events.on("screenSharingStarted", (socket, { sessionId }) =>
    announce(socket, "screenSharingStarted", sessionId, { isScreenSharing: true }, {}),
  );
  events.on("screenSharingEnded", (socket, { sessionId }) =>
    announce(socket, "screenSharingEnded", sessionId, { isScreenSharing: false }, {}),
  );
}

/** Takes a socket out of its call and tells the peers that stay, on every node. */
export async function leaveCall(io: EditorServer, calls: CallRegistry, socketId: string): Promise<void> {
  const left = await calls.leave(socketId);
  if (left) await tellLeft(io, calls, left);
}

async function tellLeft(
  io: EditorServer,
  calls: CallRegistry,
  { sessionId, member }: { sessionId: string; member: CallMember },
): Promise<void> {
  for (const other of await calls.members(sessionId))
    io.to(other.socketId).emit("rtcParticipantLeft", { sessionId, peerId: member.peer.peerId });
}
