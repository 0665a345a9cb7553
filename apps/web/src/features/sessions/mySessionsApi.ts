import {
  MySessionsPageSchema,
  SessionDeletedResponseSchema,
  SessionEndedResponseSchema,
} from "@ensemble/protocol";
import { apiRequest } from "../../lib/api";

/** GET /api/users/me/sessions?page=N: a page (from 1) of my sessions, the most recently active first. */
export function getMySessions(page: number) {
  return apiRequest(`/api/users/me/sessions?page=${page}`, MySessionsPageSchema);
}

/** POST /api/session/{id}/end: the host ends the session for everyone. */
export function postEndSession(sessionId: string) {
  return apiRequest(`/api/session/${encodeURIComponent(sessionId)}/end`, SessionEndedResponseSchema, {
    method: "POST",
  });
}

/** DELETE /api/session/{id}: the host deletes the session and everything of it, for everyone. */
export function deleteSession(sessionId: string) {
  return apiRequest(`/api/session/${encodeURIComponent(sessionId)}`, SessionDeletedResponseSchema, {
    method: "DELETE",
  });
}
