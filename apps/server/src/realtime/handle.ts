import {
  CLIENT_EVENTS,
  type ClientAckData,
  type ClientEventName,
  type ClientPayload,
  findNul,
  nulRefusal,
  type SocketErrorCode,
  SocketErrorCodeSchema,
} from "@ensemble/protocol";
import { HttpError } from "../http/errors";
import type { Logger } from "../logger";
import type { EditorSocket } from "./socket";

/** An error whose declared code and message go back to the sender of a socket event. */
export class SocketEventError extends Error {
  constructor(
    readonly code: SocketErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The acknowledgement callback socket.io hands a listener when the sender asked for one. */
export type AckCallback = (result: unknown) => void;

/**
 * Tells the sender an event was refused and nothing was done: in its ack when it sent one,
 * else as `socketError`.
 */
export function refuse(
  socket: EditorSocket,
  event: string,
  ack: AckCallback | undefined,
  code: SocketErrorCode,
  message: string,
): void {
  if (ack) ack({ ok: false, error: { code, message } });
  else socket.emit("socketError", { event, code, message });
}

type Handler<E extends ClientEventName> = (
  payload: ClientPayload<E>,
) => Promise<ClientAckData<E> | undefined> | ClientAckData<E> | undefined;

/**
 * Registers a handler that only ever sees a payload its catalogue schema accepted. An
 * acknowledged event answers `{ ok, data | error }`; any other event reports a refusal as
 * `socketError` (and one sent with a callback anyway is refused in it, unhandled). A
 * handler's failure never reaches socket.io, so it cannot crash anything.
 */
export function handle<E extends ClientEventName>(
  socket: EditorSocket,
  event: E,
  logger: Logger,
  handler: Handler<E>,
): void {
  const spec = CLIENT_EVENTS[event];
  const hasAck = "ack" in spec;
  const isStream = "rate" in spec && spec.rate === "stream";
  // socket.io's typed `on` cannot express "validated later"; the schema below is the check.
  const raw = socket as unknown as { on(name: string, listener: (...args: unknown[]) => void): void };
  raw.on(event, async (...args: unknown[]) => {
    const last = args.at(-1);
    const ack = typeof last === "function" ? (last as AckCallback) : undefined;
    const refuseWith = (code: SocketErrorCode, message: string) => refuse(socket, event, ack, code, message);
    if (hasAck && !ack) return refuseWith("invalid_payload", `${event} needs an acknowledgement callback`);
    if (!hasAck && ack) return refuseWith("invalid_payload", `${event} takes no acknowledgement callback`);
    const parsed = spec.payload.safeParse(args[0]);
    if (!parsed.success)
      return refuseWith("invalid_payload", parsed.error.issues[0]?.message ?? "invalid payload");
    // As for REST bodies: PostgreSQL cannot store NUL. Yjs messages are bytes, and skip the walk.
    const nulAt = isStream ? undefined : findNul(parsed.data);
    if (nulAt !== undefined) return refuseWith("invalid_payload", nulRefusal(nulAt, "The payload"));
    try {
      const data = await handler(parsed.data as ClientPayload<E>);
      ack?.({ ok: true, data: data ?? null });
    } catch (error) {
      if (error instanceof SocketEventError) return refuseWith(error.code, error.message);
      if (error instanceof HttpError) {
        // Services that still throw HttpError (sessions): its code passes when sockets declare it.
        const code = SocketErrorCodeSchema.safeParse(error.code);
        if (code.success) return refuseWith(code.data, error.message);
      }
      logger.error({ err: error, event }, "socket handler failed");
      refuseWith("internal", "Something went wrong");
    }
  });
}
