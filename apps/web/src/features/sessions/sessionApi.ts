import { CreateSessionResponseSchema, JoinSessionResponseSchema } from "@ensemble/protocol";
import { apiRequest } from "../../lib/api";

/** POST /api/session/create: the server picks the id (the spec's client sent the join field). */
export function postCreateSession(title: string) {
  return apiRequest("/api/session/create", CreateSessionResponseSchema, { method: "POST", body: { title } });
}

/** POST /api/session/join */
export function postJoinSession(sessionId: string) {
  return apiRequest("/api/session/join", JoinSessionResponseSchema, {
    method: "POST",
    body: { session_id: sessionId },
  });
}
