import { LIMITS, SESSION_ROUTE_PARAM } from "@ensemble/protocol";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";

/**
 * The Yjs lane: a plain WebSocket beside the socket.io connection that carries only Yjs
 * sync and awareness messages. socket.io stays for every other event; the lane skips its
 * per-message framing, and the server sends each receiver one frame per event-loop turn
 * holding every message for it (one write instead of one per message).
 *
 * A client opens `LANE_PATH?ticket=…` with the ticket of its `joinSession` answer. A binary
 * frame holds one or more messages, each a kind and its bytes; a text frame from the server
 * is a refusal (`LaneRefusal`, the `socketError` of the lane).
 */
export const LANE_PATH = "/yjs";

export const LANE_SYNC = 0;
export const LANE_AWARENESS = 1;
export type LaneKind = typeof LANE_SYNC | typeof LANE_AWARENESS;
export type LaneMessage = readonly [kind: LaneKind, message: Uint8Array];

/** What a message adds to a frame beside its bytes: its kind and its length (varuints). */
const MESSAGE_FRAMING_BYTES = 6;

/** Close codes of the lane (4000–4999 are the application's). */
export const LANE_CLOSE = {
  /** The ticket is unknown, used or expired. */
  badTicket: 4401,
  /** The socket.io connection left the session or went away. */
  left: 4000,
  /** A frame that is not a lane frame. */
  malformed: 4002,
} as const;

/** A message the server did not take, as `socketError` reports it on socket.io. */
export interface LaneRefusal {
  /** `yjsSync` or `yjsAwareness`. */
  event: string;
  code: string;
  message: string;
}

export function encodeLaneFrame(messages: readonly LaneMessage[]): Uint8Array {
  const encoder = encoding.createEncoder();
  for (const [kind, message] of messages) {
    encoding.writeVarUint(encoder, kind);
    encoding.writeVarUint8Array(encoder, message);
  }
  return encoding.toUint8Array(encoder);
}

/** Splits a lane frame into its messages; throws, taking none, when any part is malformed. */
export function decodeLaneFrame(frame: Uint8Array): LaneMessage[] {
  const decoder = decoding.createDecoder(frame);
  const messages: LaneMessage[] = [];
  while (decoding.hasContent(decoder)) {
    const kind = decoding.readVarUint(decoder);
    if (kind !== LANE_SYNC && kind !== LANE_AWARENESS) throw new Error(`unknown lane message kind ${kind}`);
    messages.push([kind, decoding.readVarUint8Array(decoder)]);
  }
  if (messages.length === 0) throw new Error("an empty lane frame");
  return messages;
}

/** An event handler slot of a WebSocket, whatever event type the implementation declares. */
type Slot = ((this: never, event: never) => unknown) | null;

/** What a lane client needs of a WebSocket: the browser's, or the `ws` package's in Node. */
export interface LaneWebSocket {
  binaryType: string;
  onopen: Slot;
  onmessage: Slot;
  onclose: Slot;
  onerror: Slot;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

export interface LaneHandlers {
  open(): void;
  message(kind: LaneKind, message: Uint8Array): void;
  refused(refusal: LaneRefusal): void;
  /** The lane closed (`wasOpen`: after it had opened); it is not reopened. */
  closed(code: number, wasOpen: boolean): void;
}

/**
 * The client's end of a lane. Messages sent in one task leave as one frame (a keystroke's
 * update and cursor together), at the end of that task; as several when one frame would be
 * over the server's cap (the parts of a large message each nearly fill one).
 */
export class LaneClient {
  private pending: LaneMessage[] = [];
  private pendingBytes = 0;
  private isOpen = false;

  constructor(
    private readonly ws: LaneWebSocket,
    handlers: LaneHandlers,
  ) {
    ws.binaryType = "arraybuffer";
    ws.onopen = () => {
      this.isOpen = true;
      handlers.open();
    };
    ws.onmessage = ({ data }: { data: unknown }) => {
      if (typeof data === "string") {
        handlers.refused(JSON.parse(data) as LaneRefusal);
        return;
      }
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : (data as Uint8Array);
      for (const [kind, message] of decodeLaneFrame(bytes)) handlers.message(kind, message);
    };
    ws.onclose = ({ code }: { code: number }) => {
      const wasOpen = this.isOpen;
      this.isOpen = false;
      this.pending = [];
      this.pendingBytes = 0;
      handlers.closed(code, wasOpen);
    };
    ws.onerror = () => {};
  }

  get open(): boolean {
    return this.isOpen;
  }

  send(kind: LaneKind, message: Uint8Array): void {
    if (!this.isOpen) return;
    const bytes = message.byteLength + MESSAGE_FRAMING_BYTES;
    if (this.pending.length > 0 && this.pendingBytes + bytes > LIMITS.socketMessageBytes) this.flush();
    if (this.pending.length === 0) void Promise.resolve().then(this.flush);
    this.pending.push([kind, message]);
    this.pendingBytes += bytes;
  }

  /**
   * Sends what is pending and closes; resolves once the server has closed too, so it has
   * handled every message sent before (or at once when the lane was not open).
   */
  close(): Promise<void> {
    this.flush();
    const wasOpen = this.isOpen;
    this.isOpen = false;
    this.ws.onmessage = null;
    const closed = new Promise<void>((resolve) => {
      this.ws.onclose = () => resolve();
      if (!wasOpen) resolve();
    });
    this.ws.close(1000, "closed by the client");
    return closed;
  }

  private readonly flush = () => {
    if (this.pending.length === 0 || !this.isOpen) return;
    this.ws.send(encodeLaneFrame(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  };
}

/**
 * The lane's URL on the server at `origin` (http(s)://host[:port]) for `ticket`; with the
 * session id, which a load balancer hashes on, so the lane reaches the node of its socket.
 */
export function laneUrl(origin: string, ticket: string, sessionId?: string): string {
  const route = sessionId === undefined ? "" : `&${SESSION_ROUTE_PARAM}=${encodeURIComponent(sessionId)}`;
  return `${origin.replace(/^http/, "ws")}${LANE_PATH}?ticket=${encodeURIComponent(ticket)}${route}`;
}
