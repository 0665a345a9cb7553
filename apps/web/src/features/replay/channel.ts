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

  /** Brings every file back to `at`; the answer names the files it could not bring back. */
  restore(at: number) {
    return this.link.request("restoreVersion", { sessionId: this.link.sessionId, at: Math.round(at) });
  }
}

/** The session's replay: timeline, moments, the host's restore. */
export const replayChannel = defineChannel("replay", (scope) => new ReplayChannel(scope));
