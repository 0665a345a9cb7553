import type { IncomingMessage } from "node:http";
import type { AuthService } from "../auth/index";

/**
 * Whom an execute API call (`/api/v2/execute`, `/api/v2/connect`) runs for, as the rate key
 * its runs count against. `authorization` is the request's header; `address` the client's.
 */
export type ExecuteCaller = (authorization: string | undefined, address: string) => Promise<string>;

/**
 * A signed-in user or a personal API token's owner counts as that user. With `anonymous`
 * (EXECUTE_ANONYMOUS, a private deployment, as a self-hosted Piston), a call without
 * credentials counts against its address; a call with wrong credentials is still refused,
 * so a client learns that its token is wrong rather than running anonymously.
 */
export function createExecuteCaller(
  auth: Pick<AuthService, "authenticateExecute">,
  anonymous: boolean,
): ExecuteCaller {
  return async (authorization, address) => {
    if (anonymous && !authorization?.trim()) return `address:${address}`;
    const user = await auth.authenticateExecute(authorization);
    return `user:${user.id}`;
  };
}

/**
 * The client's address of an upgrade request, as Express's `req.ip` reads it: the socket's
 * peer, or with TRUST_PROXY the first X-Forwarded-For entry.
 */
export function upgradeAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers["x-forwarded-for"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  if (trustProxy && first) return first;
  return req.socket.remoteAddress ?? "unknown";
}
