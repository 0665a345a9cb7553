import { randomBytes } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import {
  decodeLaneFrame,
  encodeLaneFrame,
  LANE_CLOSE,
  LANE_PATH,
  LANE_SYNC,
  type LaneKind,
  type LaneMessage,
  type LaneRefusal,
} from "@ensemble/collab";
import { LIMITS, MAX_YJS_MESSAGE_BYTES } from "@ensemble/protocol";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import type { Logger } from "../../logger";
import { socketRefusal } from "../../realtime/handle";

/** How long a `joinSession` answer's ticket can open a lane. */
const TICKET_TTL_MS = 30_000;

/** The joined connection a ticket opens a lane for (the collab socket handler). */
export interface LaneEnd {
  /** Takes the lane; false when the connection has left the session meanwhile. */
  open(lane: Lane): boolean;
  /** A message from the lane; throws a DomainError to refuse it. */
  receive(kind: LaneKind, message: Uint8Array): void;
  closed(lane: Lane): void;
}

/**
 * One open lane. Messages sent in one event-loop turn leave together as one frame when the
 * turn ends (`setImmediate`), so a receiver gets a typist's update and cursor in one write.
 */
export class Lane {
  private pending: LaneMessage[] = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly flusher: LaneFlusher,
    /** The joined connection it carries the messages of. */
    readonly end: LaneEnd,
  ) {}

  send(kind: LaneKind, message: Uint8Array): void {
    if (this.pending.length === 0) this.flusher.schedule(this);
    this.pending.push([kind, message]);
  }

  /**
   * Sends what is pending as one frame. `previous`, the frame the lane flushed before this one
   * carried, is sent as it is when this lane has the very same messages (a room's broadcast puts
   * the same message objects in each receiver's lane): one encoding for all of them. Answers the
   * frame sent, for the next lane.
   */
  flush(previous?: SentFrame): SentFrame | undefined {
    const { pending } = this;
    if (pending.length === 0) return previous;
    this.pending = [];
    const frame = previous && isSame(previous.messages, pending) ? previous.frame : encodeLaneFrame(pending);
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
    return { messages: pending, frame };
  }

  /** Tells the client a message was not taken, after what was sent before it. */
  refuse(refusal: LaneRefusal): void {
    this.flush();
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(refusal));
  }

  close(code: number, reason: string): void {
    this.flush();
    this.ws.close(code, reason);
  }
}

/** Flushes every lane with pending messages once the current event-loop turn is done. */
export class LaneFlusher {
  private readonly due = new Set<Lane>();
  private isScheduled = false;

  schedule(lane: Lane): void {
    this.due.add(lane);
    if (this.isScheduled) return;
    this.isScheduled = true;
    setImmediate(this.flushAll);
  }

  private readonly flushAll = () => {
    this.isScheduled = false;
    // A room's receivers were scheduled one after the other: each can reuse the previous frame.
    let previous: SentFrame | undefined;
    for (const lane of this.due) previous = lane.flush(previous);
    this.due.clear();
  };
}

/** A frame a lane sent and the messages it encodes. */
interface SentFrame {
  messages: readonly LaneMessage[];
  frame: Uint8Array;
}

/** The same messages, object for object, in the same order and of the same kinds. */
function isSame(a: readonly LaneMessage[], b: readonly LaneMessage[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [kindA, messageA] = a[i] as LaneMessage;
    const [kindB, messageB] = b[i] as LaneMessage;
    if (kindA !== kindB || messageA !== messageB) return false;
  }
  return true;
}

/**
 * Serves lanes on `LANE_PATH` of the HTTP server. A lane opens only with a ticket from a
 * `joinSession` answer, once, within `TICKET_TTL_MS`; it carries the Yjs messages of that
 * socket.io connection, whose membership checks apply to every message, and closes when
 * the connection leaves the session.
 */
export class LaneServer {
  private readonly tickets = new Map<string, { end: LaneEnd; expiresAt: number }>();
  /** Every open lane, by its socket: what the socket's events reach, and what `close` ends. */
  private readonly lanes = new Map<WebSocket, Lane>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: LIMITS.socketMessageBytes,
  });
  private readonly flusher = new LaneFlusher();
  private readonly listeners: LaneListeners;

  constructor(
    httpServer: HttpServer,
    private readonly logger: Logger,
  ) {
    // engine.io answers its own path; an upgrade to any other path it ends unless we wrote to it.
    httpServer.on("upgrade", (req, socket, head) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== LANE_PATH) return;
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, url.searchParams.get("ticket")));
    });
    this.listeners = laneListeners(
      this.lanes,
      (lane, data, isBinary) => this.receive(lane, data, isBinary),
      logger,
    );
  }

  /** A one-time ticket that opens a lane for `end`. */
  issue(end: LaneEnd): string {
    const now = Date.now();
    for (const [ticket, entry] of this.tickets) if (entry.expiresAt < now) this.tickets.delete(ticket);
    const ticket = randomBytes(18).toString("base64url");
    this.tickets.set(ticket, { end, expiresAt: now + TICKET_TTL_MS });
    return ticket;
  }

  /** Forgets the tickets of a connection that left (they would open nothing). */
  revoke(end: LaneEnd): void {
    for (const [ticket, entry] of this.tickets) if (entry.end === end) this.tickets.delete(ticket);
  }

  close(): void {
    for (const ws of this.lanes.keys()) ws.terminate();
    this.wss.close();
  }

  private accept(ws: WebSocket, ticket: string | null): void {
    const entry = ticket === null ? undefined : this.tickets.get(ticket);
    if (ticket !== null) this.tickets.delete(ticket);
    if (!entry || entry.expiresAt < Date.now()) {
      ws.close(LANE_CLOSE.badTicket, "unknown, used or expired ticket");
      return;
    }
    const { end } = entry;
    const lane = new Lane(ws, this.flusher, end);
    if (!end.open(lane)) {
      ws.close(LANE_CLOSE.left, "left the session");
      return;
    }
    this.lanes.set(ws, lane);
    ws.on("message", this.listeners.message);
    ws.on("close", this.listeners.close);
    ws.on("error", this.listeners.error);
  }

  private receive(lane: Lane, data: RawData, isBinary: boolean): void {
    if (!isBinary || !Buffer.isBuffer(data)) {
      lane.close(LANE_CLOSE.malformed, "a lane carries binary frames only");
      return;
    }
    let messages: LaneMessage[];
    try {
      messages = decodeLaneFrame(data);
    } catch (error) {
      lane.refuse({
        event: "yjsSync",
        code: "invalid_message",
        message: `malformed lane frame: ${String(error)}`,
      });
      return;
    }
    for (const [kind, message] of messages) {
      const event = kind === LANE_SYNC ? "yjsSync" : "yjsAwareness";
      // socket.io's schema refuses the same (a larger sync message comes in parts).
      if (message.byteLength > MAX_YJS_MESSAGE_BYTES) {
        lane.refuse({
          event,
          code: "invalid_payload",
          message: `message over ${MAX_YJS_MESSAGE_BYTES} bytes`,
        });
        continue;
      }
      try {
        lane.end.receive(kind, message);
      } catch (error) {
        const { code, message, isUnexpected } = socketRefusal(error);
        if (isUnexpected) this.logger.error({ err: error, event }, "lane message failed");
        lane.refuse({ event, code, message });
      }
    }
  }
}

/** The events of a lane's socket, each handled by one function for every lane (`this` is the socket). */
interface LaneListeners {
  message(this: WebSocket, data: RawData, isBinary: boolean): void;
  close(this: WebSocket): void;
  error(this: WebSocket, error: Error): void;
}

/**
 * Listeners shared by every lane of `lanes`, which find theirs by `this`: three closures per
 * lane cost about 0.3 kB a client (issue 32).
 */
function laneListeners(
  lanes: Map<WebSocket, Lane>,
  receive: (lane: Lane, data: RawData, isBinary: boolean) => void,
  logger: Logger,
): LaneListeners {
  return {
    message(data, isBinary) {
      const lane = lanes.get(this);
      if (lane) receive(lane, data, isBinary);
    },
    close() {
      const lane = lanes.get(this);
      if (!lane) return;
      lanes.delete(this);
      lane.end.closed(lane);
    },
    error(error) {
      logger.debug({ err: error }, "lane error");
    },
  };
}
