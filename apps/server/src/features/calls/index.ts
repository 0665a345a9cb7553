import { CALL_LIMITS, type IceServer } from "@ensemble/protocol";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import { CallRegistry } from "./registry";
import { leaveCall, registerCallSocket } from "./socket";

/**
 * Wires calls: signalling for a WebRTC mesh per session over the session's socket (DESIGN
 * decision 8; docs/calls.md). A socket leaves the call when it leaves the session's room,
 * however that happens (leaveSession, joining another session, disconnecting).
 */
export function createCallsFeature(
  io: EditorServer,
  iceServers: IceServer[],
  limiters: Limiters,
  logger: Logger,
) {
  const calls = new CallRegistry();
  // Per socket, so memory: a socket lives on one node.
  const limiter = limiters.create({
    name: "call-signals",
    points: CALL_LIMITS.messagesPerWindow,
    durationSeconds: CALL_LIMITS.windowMs / 1000,
  });
  io.of("/").adapter.on("leave-room", (room: string, socketId: string) => {
    const sessionId = calls.sessionOf(socketId);
    if (sessionId !== undefined && room === sessionRoom(sessionId)) leaveCall(io, calls, socketId);
  });
  io.on("connection", (socket) => registerCallSocket(socket, { io, calls, iceServers, limiter, logger }));
  return { calls };
}
