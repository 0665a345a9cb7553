import type { Logger } from "../../logger";
import { handle, SocketEventError } from "../../realtime/handle";
import { requireCan, requireJoined } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import { ReplayNotLiveError, type ReplayService } from "./service";

/**
 * Replay's events on one socket. Only a socket that joined the session reads its history (the
 * join is where the server decided this person is a participant; an ended session is joined as
 * an archive); restoring is a host control, refused once the session ended.
 */
export function registerReplaySocket(socket: EditorSocket, replay: ReplayService, logger: Logger) {
  handle(socket, "getReplayTimeline", logger, ({ sessionId }) => {
    requireJoined(socket, sessionId);
    return replay.timeline(sessionId);
  });

  handle(socket, "seekReplay", logger, ({ sessionId, at }) => {
    requireJoined(socket, sessionId);
    return replay.seek(sessionId, at);
  });

  handle(socket, "restoreVersion", logger, async ({ sessionId, at }) => {
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
