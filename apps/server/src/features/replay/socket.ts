import type { SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined, sessionRoom } from "../../realtime/session";
import type { ReplayService } from "./service";

/**
 * Replay's events. Only a socket that joined the session reads its history (the
 * join is where the server decided this person is a participant; an ended session is joined as
 * an archive); restoring is a host control, refused once the session ended.
 */
export function registerReplayEvents(events: SocketEvents, replay: ReplayService) {
  events.on("getReplayTimeline", (socket, { sessionId }) => {
    requireJoined(socket, sessionId);
    return replay.timeline(sessionId);
  });

  events.on("seekReplay", (socket, { sessionId, at }) => {
    requireJoined(socket, sessionId);
    return replay.seek(sessionId, at);
  });

  events.on("restoreVersion", async (socket, { sessionId, at }) => {
    const session = requireCan(socket, sessionId, "manage");
    const { refused, switchedTo } = await replay.restore(sessionId, at, session.participantId);
    // Stored first (by the restore), then announced to everyone, the host's tabs included.
    if (switchedTo)
      socket.nsp.to(sessionRoom(sessionId)).emit("languageUpdate", { sessionId, language: switchedTo });
    return { refused };
  });
}
