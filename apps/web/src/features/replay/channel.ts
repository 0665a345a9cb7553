import {
  type ReplayFrame,
  ReplayFrameSchema,
  type ReplayTimeline,
  ReplayTimelineSchema,
  RestoreVersionAckSchema,
} from "@ensemble/protocol";
import { ackError, type EditorSocket } from "../../lib/socket";
import { setReplayOpen } from "./store";

const ACK_TIMEOUT_MS = 20_000;

/** What a replay request answers: the parsed data, or why it failed in words for the person. */
export type ReplayResult<T> = { ok: true; data: T } | { ok: false; message: string };

/**
 * Replay over the editor's one socket: the timeline, the project at a moment, and the host's
 * restore. The server checks who may ask; answers are parsed before use.
 */
export class ReplayChannel {
  constructor(
    private readonly socket: EditorSocket,
    private readonly sessionId: string,
  ) {
    // A new session starts with the replay closed and nothing of another session's history.
    setReplayOpen(false);
  }

  timeline(): Promise<ReplayResult<ReplayTimeline>> {
    return new Promise((resolve) =>
      this.socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("getReplayTimeline", { sessionId: this.sessionId }, (err, result) => {
          const error = ackError(err, result);
          const parsed = result?.ok ? ReplayTimelineSchema.safeParse(result.data) : null;
          resolve(
            parsed?.success ? { ok: true, data: parsed.data } : { ok: false, message: error ?? "Bad answer" },
          );
        }),
    );
  }

  seek(at: number): Promise<ReplayResult<ReplayFrame>> {
    return new Promise((resolve) =>
      this.socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("seekReplay", { sessionId: this.sessionId, at: Math.round(at) }, (err, result) => {
          const error = ackError(err, result);
          const parsed = result?.ok ? ReplayFrameSchema.safeParse(result.data) : null;
          resolve(
            parsed?.success ? { ok: true, data: parsed.data } : { ok: false, message: error ?? "Bad answer" },
          );
        }),
    );
  }

  /** Resolves with null once restored (files it could not bring back named), or with why it was refused. */
  restore(at: number): Promise<string | null> {
    return new Promise((resolve) =>
      this.socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("restoreVersion", { sessionId: this.sessionId, at: Math.round(at) }, (err, result) => {
          const error = ackError(err, result);
          if (error) return resolve(error);
          const parsed = result?.ok ? RestoreVersionAckSchema.safeParse(result.data) : null;
          const refused = parsed?.success ? parsed.data.refused : [];
          resolve(
            refused.length > 0
              ? `Not restored: ${refused.map((r) => `${r.path} (${r.message})`).join(", ")}`
              : null,
          );
        }),
    );
  }
}
