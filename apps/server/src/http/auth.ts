import { AUTH_MESSAGES, type User } from "@ensemble/protocol";
import type { Request } from "express";
import { HttpError } from "./errors";

/** The bearer token of a request, or undefined when it carries none. */
export function bearerToken(req: Request): string | undefined {
  const header = req.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** Resolves the caller or throws 401; `authenticate` is the auth feature's token check. */
export async function requireUser(
  req: Request,
  authenticate: (token: string) => Promise<User>,
): Promise<User> {
  const token = bearerToken(req);
  if (!token) throw new HttpError("unauthenticated", AUTH_MESSAGES.noToken);
  return authenticate(token);
}

/** The address that rate limits count against (the proxy's view when TRUST_PROXY is set). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** The origin users reach us at: PUBLIC_URL, else the request's own. */
export function publicOrigin(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, "");
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}
