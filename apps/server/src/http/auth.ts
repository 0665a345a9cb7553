import { AUTH_MESSAGES, type User } from "@ensemble/protocol";
import type { Request } from "express";
import { DomainError } from "../errors";

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
  if (!token) throw new DomainError("unauthenticated", AUTH_MESSAGES.noToken);
  return authenticate(token);
}

/** The address that rate limits count against (the proxy's view when TRUST_PROXY is set). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** What publicOrigin needs of the configuration. */
export interface OriginConfig {
  PUBLIC_URL?: string | undefined;
  ALLOWED_HOSTS: string[];
}

/**
 * The origin users reach us at, for links we hand out: PUBLIC_URL, else the request's own
 * when its Host is allowed (a bare allowed host at the port the request came in on), else
 * the first allowed host, so a forged Host header can never point a link elsewhere.
 */
export function publicOrigin(req: Request, config: OriginConfig): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, "");
  const host = req.get("host")?.toLowerCase();
  const port = req.socket.localPort;
  const atPort = (entry: string) => (/:\d+$/.test(entry) ? entry : `${entry}:${port}`);
  const isAllowed = config.ALLOWED_HOSTS.some((entry) => entry === host || atPort(entry) === host);
  return `${req.protocol}://${isAllowed ? host : atPort(config.ALLOWED_HOSTS[0] ?? "localhost")}`;
}
