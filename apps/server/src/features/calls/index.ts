import { CALL_LIMITS } from "@ensemble/protocol";
import type { TableMaker } from "../../cluster/index";
import type { Limiters } from "../../limiter";
import type { SocketEvents } from "../../realtime/handle";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import { CallRegistry } from "./registry";
import { type IceConfig, leaveCall, registerCallEvents } from "./socket";
import type { TurnConfig } from "./turn";

/** The TURN relay of the configuration, if it names one. */
export function turnConfigOf(config: {
  TURN_URLS?: string[] | undefined;
  TURN_SECRET?: string | undefined;
  TURN_TTL_SECONDS: number;
}): TurnConfig | undefined {
  if (!config.TURN_URLS || !config.TURN_SECRET) return undefined;
  return { urls: config.TURN_URLS, secret: config.TURN_SECRET, ttlSeconds: config.TURN_TTL_SECONDS };
}

/**
 * Wires calls: signalling for a WebRTC mesh per session over the session's socket (DESIGN
 * decision 8; docs/calls.md). A socket leaves the call when it leaves the session's room,
 * however that happens (leaveSession, joining another session, disconnecting).
 */
export function createCallsFeature(
  io: EditorServer,
  events: SocketEvents,
  ice: IceConfig,
  limiters: Limiters,
  makeTable: TableMaker,
) {
  // A member whose node died leaves like one who hung up: the others close their link to it.
  const calls = new CallRegistry(makeTable, (sessionId, gone) => {
    void calls.members(sessionId).then(
      (members) => {
        for (const other of members)
          io.to(other.socketId).emit("rtcParticipantLeft", { sessionId, peerId: gone.peer.peerId });
      },
      () => {},
    );
  });
  // Per socket, so memory: a socket lives on one node.
  const limiter = limiters.create({
    name: "call-signals",
    points: CALL_LIMITS.messagesPerWindow,
    durationSeconds: CALL_LIMITS.windowMs / 1000,
  });
  io.of("/").adapter.on("leave-room", (room: string, socketId: string) => {
    const sessionId = calls.sessionOf(socketId);
    if (sessionId !== undefined && room === sessionRoom(sessionId))
      void leaveCall(io, calls, socketId).catch(() => {});
  });
  registerCallEvents({ io, events, calls, ice, limiter });
  return { calls };
}
