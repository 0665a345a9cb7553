import {
  MY_SESSIONS_MESSAGES,
  MySessionsQuerySchema,
  type SessionDeletedResponse,
  type SessionEndedResponse,
  SessionIdSchema,
} from "@ensemble/protocol";
import { type Request, Router } from "express";
import { DomainError } from "../../errors";
import { requireUser } from "../../http/auth";
import type { AuthService } from "../auth/index";
import type { SessionService } from "./service";
import type { SessionControl } from "./socket";

export interface MySessionsDeps {
  sessions: SessionService;
  auth: AuthService;
  /** The live sockets of a session: ended or sent home. */
  control: SessionControl;
  /**
   * What other features let go of a session its host (`host`) is deleting, before its rows go:
   * a live run stopped; and after: its files kept outside the database (the git repository).
   */
  forget: {
    before: (sessionId: string, host: { id: string; name: string }) => Promise<void>;
    after: (sessionId: string) => Promise<void>;
  };
}

/** A path's session id; a malformed one names no session. */
function sessionIdOf(req: Request): string {
  const id = SessionIdSchema.safeParse(req.params.id);
  if (!id.success) throw new DomainError("not_found", "Session not found");
  return id.data;
}

/**
 * "My sessions": the signed-in user's sessions, paged, and the host's end and delete of one.
 * Every route reads who asks from the bearer token; end and delete check that this user hosts
 * the session now. Both are under /api/session/<id>/, so a cluster's balancer sends them to the
 * node that holds the session's sockets and document.
 */
export function mySessionsRoutes(deps: MySessionsDeps): Router {
  const { sessions, auth, control } = deps;
  const router = Router();
  const authenticate = (req: Request) => requireUser(req, auth.authenticate);

  router.get("/users/me/sessions", async (req, res) => {
    const user = await authenticate(req);
    const query = MySessionsQuerySchema.safeParse(req.query);
    if (!query.success)
      throw new DomainError("bad_request", query.error.issues[0]?.message ?? "Invalid query");
    res.json(await sessions.listMine(user.id, query.data.page));
  });

  router.post("/session/:id/end", async (req, res) => {
    const user = await authenticate(req);
    const sessionId = sessionIdOf(req);
    await sessions.requireHost(sessionId, user.id, MY_SESSIONS_MESSAGES.hostOnlyEnd);
    const state = await control.setEnded(sessionId, true);
    const body: SessionEndedResponse = { session_id: sessionId, ended_at: state.endedAt };
    res.json(body);
  });

  router.delete("/session/:id", async (req, res) => {
    const user = await authenticate(req);
    const sessionId = sessionIdOf(req);
    await sessions.requireHost(sessionId, user.id, MY_SESSIONS_MESSAGES.hostOnlyDelete);
    // Everyone leaves first, the document stored and unloaded; then nothing of it is kept.
    await deps.forget.before(sessionId, user);
    await control.closeForDeletion(sessionId);
    await sessions.delete(sessionId);
    await deps.forget.after(sessionId);
    const body: SessionDeletedResponse = { session_id: sessionId, message: MY_SESSIONS_MESSAGES.deleted };
    res.json(body);
  });

  return router;
}
