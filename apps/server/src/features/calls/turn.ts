import { createHmac } from "node:crypto";
import type { IceServer } from "@ensemble/protocol";

/** A TURN relay that takes time-limited credentials (coturn's `use-auth-secret`). */
export interface TurnConfig {
  urls: string[];
  /** coturn's `static-auth-secret`. */
  secret: string;
  /** How long a participant's credentials open the relay, from their joining the call. */
  ttlSeconds: number;
}

/**
 * The TURN REST scheme (draft-uberti-behave-turn-rest): the user name is the expiry time in
 * Unix seconds and who it is for, the password the HMAC-SHA1 of that name under the shared
 * secret, in base64. The relay checks both without asking us; after the expiry it refuses
 * them, so a participant who left cannot go on relaying with what it was given.
 */
export function turnCredentials(config: TurnConfig, participantId: string, nowMs = Date.now()): IceServer {
  const expiry = Math.floor(nowMs / 1000) + config.ttlSeconds;
  const username = `${expiry}:${participantId}`;
  const credential = createHmac("sha1", config.secret).update(username).digest("base64");
  return { urls: config.urls, username, credential };
}
