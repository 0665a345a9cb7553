import { z } from "zod";

/**
 * The socket.io handshake (`auth` option of the client). The event catalogue grows with
 * the editor issues; every event is declared here, never as a bare string elsewhere.
 */
export const HandshakeSchema = z.object({
  protocolVersion: z.number().int(),
  token: z.string().max(4096).optional(),
  /**
   * A guest's own random id, kept by the browser, so a guest who reconnects stays the same
   * participant. It only names a guest; it grants nothing.
   */
  guestId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional(),
});
export type Handshake = z.infer<typeof HandshakeSchema>;

/** Reasons the server refuses a connection, sent as the `connect_error` message. */
export const CONNECT_ERRORS = {
  badHandshake: "bad_handshake",
  protocolMismatch: "protocol_mismatch",
  invalidToken: "invalid_token",
} as const;
