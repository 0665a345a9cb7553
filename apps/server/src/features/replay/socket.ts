import { SocketEventError, type SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined } from "../../realtime/session";
import { ReplayNotLiveError, type ReplayService } from "./service";

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
    try {
      return await replay.restore(sessionId, at, session.participantId);
    } catch (error) {
      // The host's own socket is in the session, so its document is loaded; this is a race with leaving.
      if (error instanceof ReplayNotLiveError)
        throw new SocketEventError("conflict", "Join the session again to restore");
      throw error;
    }
  });
}
