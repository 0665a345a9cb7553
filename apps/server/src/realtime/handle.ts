import {
  CLIENT_EVENTS,
  type ClientAckData,
  type ClientEventName,
  type ClientPayload,
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

type Handler<E extends ClientEventName> = (
  payload: ClientPayload<E>,
) => Promise<ClientAckData<E> | undefined> | ClientAckData<E> | undefined;

/**
 * Registers a handler that only ever sees a payload its catalogue schema accepted. An
 * acknowledged event answers `{ ok, data | error }`; any other event reports a refusal as
 * `socketError`. A handler's failure never reaches socket.io, so it cannot crash anything.
 */
export function handle<E extends ClientEventName>(
  socket: EditorSocket,
  event: E,
  logger: Logger,
  handler: Handler<E>,
): void {
  const spec = CLIENT_EVENTS[event];
  const hasAck = "ack" in spec;
  // socket.io's typed `on` cannot express "validated later"; the schema below is the check.
  const raw = socket as unknown as { on(name: string, listener: (...args: unknown[]) => void): void };
  raw.on(event, async (...args: unknown[]) => {
    const last = args.at(-1);
    const ack = hasAck && typeof last === "function" ? (last as (result: unknown) => void) : undefined;
    const refuse = (code: SocketErrorCode, message: string) => {
      if (ack) ack({ ok: false, error: { code, message } });
      else socket.emit("socketError", { event, code, message });
    };
    if (hasAck && !ack) return refuse("invalid_payload", `${event} needs an acknowledgement callback`);
    const parsed = spec.payload.safeParse(args[0]);
    if (!parsed.success)
      return refuse("invalid_payload", parsed.error.issues[0]?.message ?? "invalid payload");
    try {
      const data = await handler(parsed.data as ClientPayload<E>);
      ack?.({ ok: true, data: data ?? null });
    } catch (error) {
      if (error instanceof SocketEventError) return refuse(error.code, error.message);
      if (error instanceof HttpError) {
        // Services that still throw HttpError (sessions): its code passes when sockets declare it.
        const code = SocketErrorCodeSchema.safeParse(error.code);
        if (code.success) return refuse(code.data, error.message);
      }
      logger.error({ err: error, event }, "socket handler failed");
      refuse("internal", "Something went wrong");
    }
  });
}
