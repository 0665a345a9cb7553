import {
  type ClientToServerEvents,
  PROTOCOL_VERSION,
  SESSION_ROUTE_PARAM,
  type ServerToClientEvents,
} from "@ensemble/protocol";
import { io, type Socket } from "socket.io-client";
import msgpackParser from "socket.io-msgpack-parser";
import { readStoredToken, readStoredUserId } from "./storage";

/** The editor's socket, typed by the protocol's event catalogue. */
export type EditorSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Opens the one socket of an editor session, as the signed-in user when `token` is given,
 * else as an anonymous guest. Options are the spec's client defaults: reconnects forever
 * with a 1–5 s randomized backoff. msgpack keeps each binary Yjs message in one frame. The
 * session id rides in the handshake URL, where a cluster's balancer hashes on it.
 */
export function createEditorSocket(token: string | null, sessionId: string): EditorSocket {
  const identity = token ? signedIn(token) : () => ({ guestSecret: guestSecret() });
  return io({
    path: "/socket.io",
    transports: ["websocket", "polling"],
    parser: msgpackParser,
    query: { [SESSION_ROUTE_PARAM]: sessionId },
    // Read at every (re)connect: see signedIn.
    auth: (send) => send({ protocolVersion: PROTOCOL_VERSION, ...identity() }),
    timeout: 20_000,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    randomizationFactor: 0.5,
    reconnectionAttempts: Number.POSITIVE_INFINITY,
    autoConnect: false,
  });
}

/**
 * The token to connect with: the one this browser holds now, if it is still the same user's.
 * A password change here stores a fresh token, and the server ends the connections of the
 * old one: the reconnect must use the fresh one, or this browser would be signed out too.
 */
function signedIn(token: string): () => { token: string } {
  const userId = readStoredUserId();
  return () => ({ token: (readStoredUserId() === userId && readStoredToken()) || token });
}

const GUEST_SECRET_KEY = "ensembleGuestSecret";

/**
 * This browser's guest secret: 256 random bits, made once, so a reconnecting guest stays one
 * participant. Only this browser holds it; others see a hash of it as the guest's id.
 */
function guestSecret(): string {
  const stored = localStorage.getItem(GUEST_SECRET_KEY);
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return stored;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const fresh = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  localStorage.setItem(GUEST_SECRET_KEY, fresh);
  return fresh;
}
