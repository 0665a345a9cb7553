import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
import { setReplayOpen } from "./store";

/**
 * Replay over the editor's one socket: the timeline, the project at a moment, and the host's
 * restore. The server checks who may ask; answers are parsed before use.
 */
export class ReplayChannel {
  private readonly link: SessionLink;

  constructor({ link }: ChannelScope) {
    this.link = link;
    // A new session starts with the replay closed and nothing of another session's history.
    setReplayOpen(false);
  }

  timeline() {
    return this.link.request("getReplayTimeline", { sessionId: this.link.sessionId });
  }

  seek(at: number) {
    return this.link.request("seekReplay", { sessionId: this.link.sessionId, at: Math.round(at) });
  }

  /** Resolves with null once restored (files it could not bring back named), or with why it was refused. */
  async restore(at: number): Promise<string | null> {
    const result = await this.link.request("restoreVersion", {
      sessionId: this.link.sessionId,
      at: Math.round(at),
    });
    if (!result.ok) return result.error.message;
    const { refused } = result.data;
    return refused.length > 0
      ? `Not restored: ${refused.map((r) => `${r.path} (${r.message})`).join(", ")}`
      : null;
  }
}

/** The session's replay: timeline, moments, the host's restore. */
export const replayChannel = defineChannel("replay", (scope) => new ReplayChannel(scope));
