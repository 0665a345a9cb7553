import { z } from "zod";

/** A PR request's answer: the data, or why it did not happen (a server error code or ours). */
export type PrResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

export const NO_ANSWER = "The server did not answer. Check your connection and try again.";
export const OFFLINE = "You are offline. Try again when the connection is back.";

const FailureSchema = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string() }),
});

/**
 * Reads an ack against the event's data schema: `null` (no answer in time) becomes
 * `no_answer`, anything the schema refuses becomes `invalid_answer`.
 */
export function parseAck<T>(schema: z.ZodType<T>, ack: unknown): PrResult<T> {
  if (ack === null || ack === undefined) return { ok: false, code: "no_answer", message: NO_ANSWER };
  const failure = FailureSchema.safeParse(ack);
  if (failure.success) return { ok: false, ...failure.data.error };
  const success = z.object({ ok: z.literal(true), data: schema }).safeParse(ack);
  if (success.success) return { ok: true, data: success.data.data };
  return { ok: false, code: "invalid_answer", message: "Unexpected answer from the server" };
}
