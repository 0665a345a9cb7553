import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
import { setReplayOpen } from "./store";

/**
 * Replay over the editor's one socket: the timeline, the project at a moment, and the host's
 * restore. The server checks who may ask; answers are parsed before use.
 */
export class ReplayChannel {
  private readonly link: SessionLink;
  private readonly historyHandlers = new Set<() => void>();

  constructor({ link, doc }: ChannelScope) {
    this.link = link;
    // A new session starts with the replay closed and nothing of another session's history.
    setReplayOpen(false);
    // What grows the history as it happens: edits (anyone's, reaching this document), terminal
    // entries and pull-request changes, a language switch.
    const notify = () => {
      for (const handler of this.historyHandlers) handler();
    };
    doc.on("update", notify);
    link.listen("terminalUpdate", notify);
    link.listen("prSync", notify);
    link.listen("languageUpdate", notify);
  }

  /** Calls `handler` whenever the session's history may have grown, until the returned stop is called. */
  onHistory(handler: () => void): () => void {
    this.historyHandlers.add(handler);
    return () => this.historyHandlers.delete(handler);
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
