import { z } from "zod";

/**
 * The socket.io handshake (`auth` option of the client). The event catalogue grows with
 * the editor issues; every event is declared here, never as a bare string elsewhere.
 */
export const HandshakeSchema = z.object({
  protocolVersion: z.number().int(),
  token: z.string().max(4096).optional(),
  /**
   * A guest's secret: 256 random bits (hex) its browser keeps, so a guest who reconnects
   * stays the same participant. Others see only a one-way hash of it as the guest's id, so
   * nothing anyone is shown of a guest lets them connect as that guest.
   */
  guestSecret: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type Handshake = z.infer<typeof HandshakeSchema>;

/**
 * The query parameter of the socket's and the Yjs lane's handshake URL that carries the
 * session id, so a load balancer can route every connection of a session to one node by it
 * (docs/operations.md). Routing only: the server trusts nothing in it.
 */
export const SESSION_ROUTE_PARAM = "session";

/** Reasons the server refuses a connection, sent as the `connect_error` message. */
export const CONNECT_ERRORS = {
  badHandshake: "bad_handshake",
  protocolMismatch: "protocol_mismatch",
  invalidToken: "invalid_token",
} as const;
