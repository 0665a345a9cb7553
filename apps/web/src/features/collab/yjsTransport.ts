import { LANE_AWARENESS, LANE_SYNC, LaneClient, type LaneRefusal, laneUrl, toWire } from "@ensemble/collab";
import type { SessionLink } from "../../lib/sessionLink";

/** What the transport hands to the session's Yjs client. */
export interface YjsReceiver {
  receiveSync(message: Uint8Array): void;
  receiveAwareness(message: Uint8Array): void;
  /** A path for Yjs is open (the lane, or socket.io again after the lane closed): sync over it. */
  connected(): void;
  /** The path Yjs was synced over is gone. */
  disconnected(): void;
  /** The server did not take one of our messages. */
  refused(refusal: LaneRefusal): void;
}

/**
 * How one session's Yjs messages travel: over the current join's lane once it is open
 * (DESIGN: a plain WebSocket, cheaper than socket.io per keystroke), else over socket.io. If
 * the lane cannot open, or closes while the socket stays, Yjs goes over socket.io from then
 * on; a resync covers each switch.
 */
export class YjsTransport {
  private lane: LaneClient | null = null;

  constructor(
    private readonly link: SessionLink,
    private readonly receiver: YjsReceiver,
  ) {
    // Yjs comes over socket.io until the lane opens, and whenever it cannot.
    link.listen("yjsSync", (message) => receiver.receiveSync(message));
    link.listen("yjsAwareness", (message) => receiver.receiveAwareness(message));
  }

  // A message while disconnected would sit in socket.io's buffer and reach the server before
  // our next join; the sync handshake after that join resends what matters.
  sendSync(message: Uint8Array): void {
    if (this.lane) this.lane.send(LANE_SYNC, message);
    else this.link.send("yjsSync", toWire(message));
  }

  sendAwareness(message: Uint8Array): void {
    if (this.lane) this.lane.send(LANE_AWARENESS, message);
    else this.link.send("yjsAwareness", toWire(message));
  }

  /** Opens a join's lane with its ticket; `isCurrent` says whether that join still stands. */
  open(ticket: string, isCurrent: () => boolean): void {
    const { receiver } = this;
    const lane = new LaneClient(new WebSocket(laneUrl(window.location.origin, ticket, this.link.sessionId)), {
      open: () => {
        if (!isCurrent()) {
          void lane.close();
          return;
        }
        this.lane = lane;
        receiver.connected();
      },
      message: (kind, message) =>
        kind === LANE_SYNC ? receiver.receiveSync(message) : receiver.receiveAwareness(message),
      refused: (refusal) => receiver.refused(refusal),
      closed: (_code, wasOpen) => {
        if (this.lane === lane) this.lane = null;
        if (!isCurrent()) return;
        if (wasOpen) receiver.disconnected();
        if (this.link.isConnected) receiver.connected();
      },
    });
  }

  /** Closes the lane; resolves once the server has what it carried. */
  close(): Promise<void> {
    const closed = this.lane?.close() ?? Promise.resolve();
    this.lane = null;
    return closed;
  }
}
