import {
  CreateSessionBodySchema,
  JoinSessionBodySchema,
  SESSION_MESSAGES,
  SessionIdSchema,
} from "@ensemble/protocol";
import { type Request, Router } from "express";
import type { Config } from "../../env";
import { DomainError } from "../../errors";
import { bearerToken, clientAddress, publicOrigin, requireUser } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { Limiter } from "../../limiter";
import type { AuthService } from "../auth/index";
import type { SessionService } from "./service";

/** Per-address limits on what anyone can ask of sessions. */
export interface SessionLimits {
  create: Limiter;
  join: Limiter;
}

/** Counts the request against its address; over the limit, 429 with Retry-After and nothing done. */
async function takeFromAddress(limiter: Limiter, req: Request) {
  const wait = await limiter.take(clientAddress(req));
  if (wait > 0) {
    throw new DomainError("rate_limited", SESSION_MESSAGES.tooManyRequests, { retryAfterSeconds: wait });
  }
}

/**
 * The sessions API of spec §7. The session id is a capability: knowing it lets one join;
 * reading who takes part needs one to have joined.
 */
export function sessionRoutes(
  sessions: SessionService,
  auth: AuthService,
  config: Config,
  limits: SessionLimits,
): Router {
  const router = Router();
  const authenticate = (req: Request) => requireUser(req, auth.authenticate);

  router.post("/session/create", async (req, res) => {
    await takeFromAddress(limits.create, req);
    const user = await authenticate(req);
    const { title } = parseBody(req, CreateSessionBodySchema);
    res.status(201).json(await sessions.create(user.id, title, publicOrigin(req, config)));
  });

  router.post("/session/join", async (req, res) => {
    await takeFromAddress(limits.join, req);
    const user = await authenticate(req);
    const { session_id } = parseBody(req, JoinSessionBodySchema);
    res.json(await sessions.join(user.id, session_id));
  });

  router.get("/session/:id", async (req, res) => {
    const id = SessionIdSchema.safeParse(req.params.id);
    if (!id.success) throw new DomainError("not_found", "Session not found");
    // A token is optional here, but one that is sent must be valid.
    const viewer = bearerToken(req) === undefined ? undefined : await authenticate(req);
    res.json(await sessions.get(id.data, viewer?.id));
  });

  return router;
}
