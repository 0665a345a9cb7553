import { GitOperationSchema, SessionIdSchema } from "@ensemble/protocol";
import { Router } from "express";
import { DomainError } from "../../errors";
import { requireUser } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { AuthService } from "../auth/index";
import type { SessionService } from "../sessions/index";
import type { Author, VcsService } from "./service";

/**
 * `POST /api/session/:id/git` runs one git operation for a signed-in caller, the same ones
 * as the socket's `gitOperation`; the caller's role is read from the session's participants,
 * so only its host gets past the service's check.
 */
export function vcsRoutes(deps: {
  vcs: VcsService;
  auth: AuthService;
  sessions: SessionService;
  authorOf: (userId: string | undefined, name: string) => Promise<Author>;
}): Router {
  const router = Router();

  router.post("/session/:id/git", async (req, res) => {
    const user = await requireUser(req, deps.auth.authenticate);
    const id = SessionIdSchema.safeParse(req.params.id);
    if (!id.success) throw new DomainError("not_found", "Session not found");
    const operation = parseBody(req, GitOperationSchema);
    const role = await deps.sessions.roleOf(id.data, user.id);
    const caller = { isHost: role === "host", author: () => deps.authorOf(user.id, user.name) };
    const { applied: _applied, ...outcome } = await deps.vcs.run(id.data, caller, operation);
    res.json(outcome);
  });
  return router;
}
