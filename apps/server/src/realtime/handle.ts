import {
  CLIENT_EVENTS,
  type ClientAckData,
  type ClientEventName,
  type ClientPayload,
  type ErrorCode,
  findNul,
  nulRefusal,
} from "@ensemble/protocol";
import { DomainError } from "../errors";
import type { Logger } from "../logger";
import type { EditorSocket } from "./socket";

/** The codes a socket refusal names otherwise (REST's names came first); the rest go as they are. */
const SOCKET_CODE: Partial<Record<ErrorCode, ErrorCode>> = {
  invalid_body: "invalid_payload",
};

/** What a refused socket event tells its sender; `isUnexpected` when the error was none of ours. */
export interface SocketRefusal {
  code: ErrorCode;
  message: string;
  isUnexpected: boolean;
}

/**
 * The socket refusal for any error a handler threw: a DomainError's code and message, the one
 * place codes meet sockets; anything else is `internal` and says nothing of itself.
 */
export function socketRefusal(error: unknown): SocketRefusal {
  if (!(error instanceof DomainError)) {
    return { code: "internal", message: "Something went wrong", isUnexpected: true };
  }
  return { code: SOCKET_CODE[error.code] ?? error.code, message: error.message, isUnexpected: false };
}

/** The acknowledgement callback socket.io hands a listener when the sender asked for one. */
export type AckCallback = (result: unknown) => void;

/** The acknowledgement callback among an event's arguments: socket.io passes it last. */
export function ackOf(args: unknown[]): AckCallback | undefined {
  const last = args.at(-1);
  return typeof last === "function" ? (last as AckCallback) : undefined;
}

/**
 * Tells the sender an event was refused and nothing was done: in its ack when it sent one,
 * else as `socketError`.
 */
export function refuse(
  socket: EditorSocket,
  event: string,
  ack: AckCallback | undefined,
  code: ErrorCode,
  message: string,
): void {
  if (ack) ack({ ok: false, error: { code, message } });
  else socket.emit("socketError", { event, code, message });
}

/** A client event's handler: it only ever sees a payload its catalogue schema accepted. */
export type SocketHandler<E extends ClientEventName> = (
  socket: EditorSocket,
  payload: ClientPayload<E>,
) => Promise<ClientAckData<E> | undefined> | ClientAckData<E> | undefined;

/**
 * Every client event's handler, registered once for the whole server. A socket carries no
 * listener of its own: the admission gate (admission.ts) hands each event it admits to
 * `dispatch`. (A closure per event per socket cost about 21 kB of heap a session: issue 12.)
 * A feature keeps what it must remember of one socket in `socket.data` or a WeakMap.
 */
export class SocketEvents {
  private readonly handlers = new Map<ClientEventName, SocketHandler<ClientEventName>>();
  private readonly onDisconnects: ((socket: EditorSocket) => void)[] = [];

  constructor(private readonly logger: Logger) {}

  /** Registers the one handler of `event`. */
  on<E extends ClientEventName>(event: E, handler: SocketHandler<E>): void {
    if (this.handlers.has(event)) throw new Error(`"${event}" already has a handler`);
    // The map holds every event's handler; `dispatch` gives each the payload its own schema parsed.
    this.handlers.set(event, handler as unknown as SocketHandler<ClientEventName>);
  }

  /** The catalogue's events that nothing handles: none, once every feature is wired. */
  unhandled(): ClientEventName[] {
    return (Object.keys(CLIENT_EVENTS) as ClientEventName[]).filter((event) => !this.handlers.has(event));
  }

  /** Runs `cleanup` when any socket disconnects (after it left socket.io's rooms). */
  onDisconnect(cleanup: (socket: EditorSocket) => void): void {
    this.onDisconnects.push(cleanup);
  }

  /** Tells every feature a socket is gone; one failing cleanup does not stop the others. */
  disconnected(socket: EditorSocket): void {
    for (const cleanup of this.onDisconnects) {
      try {
        cleanup(socket);
      } catch (error) {
        this.logger.error({ err: error }, "a socket's cleanup failed");
      }
    }
  }

  /**
   * Runs an admitted event's handler. An acknowledged event answers `{ ok, data | error }`;
   * any other event reports a refusal as `socketError` (and one sent with a callback anyway is
   * refused in it, unhandled). A handler's failure never reaches socket.io, so it cannot crash
   * anything.
   */
  async dispatch(socket: EditorSocket, event: ClientEventName, args: unknown[]): Promise<void> {
    const spec = CLIENT_EVENTS[event];
    const ack = ackOf(args);
    const refuseWith = (code: ErrorCode, message: string) => refuse(socket, event, ack, code, message);
    const handler = this.handlers.get(event);
    if (!handler) return refuseWith("unknown_event", `Unknown event "${event}"`);
    const hasAck = "ack" in spec;
    if (hasAck && !ack) return refuseWith("invalid_payload", `${event} needs an acknowledgement callback`);
    if (!hasAck && ack) return refuseWith("invalid_payload", `${event} takes no acknowledgement callback`);
    const parsed = spec.payload.safeParse(args[0]);
    if (!parsed.success)
      return refuseWith("invalid_payload", parsed.error.issues[0]?.message ?? "invalid payload");
    // As for REST bodies: PostgreSQL cannot store NUL. Yjs messages are bytes, and skip the walk.
    const isStream = "rate" in spec && spec.rate === "stream";
    const nulAt = isStream ? undefined : findNul(parsed.data);
    if (nulAt !== undefined) return refuseWith("invalid_payload", nulRefusal(nulAt, "The payload"));
    try {
      const data = await handler(socket, parsed.data as ClientPayload<ClientEventName>);
      ack?.({ ok: true, data: data ?? null });
    } catch (error) {
      const refusal = socketRefusal(error);
      if (refusal.isUnexpected) this.logger.error({ err: error, event }, "socket handler failed");
      refuseWith(refusal.code, refusal.message);
    }
  }
}
