import { z } from "zod";
import { LIMITS } from "./limits";

/**
 * Roles in a session (DESIGN decision 17): exactly one host; editors change the code, run it
 * and propose pull requests; viewers see everything live and change nothing.
 */
export const RoleSchema = z.enum(["host", "editor", "viewer"]);
export type Role = z.infer<typeof RoleSchema>;

export const SessionIdSchema = z
  .string({ error: "Please enter a valid session ID!" })
  .trim()
  .min(1, "Please enter a valid session ID!")
  .max(LIMITS.sessionIdMax, "Session ID is too long")
  .regex(/^[A-Za-z0-9_-]+$/, "Session ID may contain only letters, digits, '-' and '_'");

/** Messages of the sessions API that are ours rather than the spec's. */
export const SESSION_MESSAGES = {
  tooManyRequests: "Too many session requests from this address. Please wait a minute and try again.",
} as const;

/**
 * POST /api/session/create. The server generates the id; a `session_id` sent by old
 * clients is accepted and ignored (the spec's create dialog sent the join field).
 */
export const CreateSessionBodySchema = z.object({
  title: z
    .string({ error: "Session name is required" })
    .trim()
    .min(1, "Session name is required")
    .max(LIMITS.sessionTitleMax, `Session name must be at most ${LIMITS.sessionTitleMax} characters`),
  session_id: z.unknown().optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBodySchema>;

export const CreateSessionResponseSchema = z.object({
  session_id: z.string(),
  session_link: z.string(),
  title: z.string(),
  message: z.string(),
});
export type CreateSessionResponse = z.infer<typeof CreateSessionResponseSchema>;

/** POST /api/session/join */
export const JoinSessionBodySchema = z.object({ session_id: SessionIdSchema });
export type JoinSessionBody = z.infer<typeof JoinSessionBodySchema>;

export const JoinSessionResponseSchema = z.object({
  message: z.string(),
  session_id: z.string(),
  role: RoleSchema,
});
export type JoinSessionResponse = z.infer<typeof JoinSessionResponseSchema>;

export const ParticipantSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  role: RoleSchema,
  joined_at: z.string(),
});
export type Participant = z.infer<typeof ParticipantSchema>;

/**
 * GET /api/session/{id} for anyone who is not a participant (no token, or a signed-in user
 * who never joined): only that the session exists, and its title. A link is enough to join,
 * but not to learn who is in the session.
 */
export const SessionSummarySchema = z.object({
  session_id: z.string(),
  title: z.string(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** GET /api/session/{id} for one of its participants (the host included). */
export const SessionResponseSchema = z.object({
  session_id: z.string(),
  title: z.string(),
  is_public: z.boolean(),
  created_at: z.string(),
  /** When the host ended the session (it is then read-only), or null while it is open. */
  ended_at: z.string().nullable(),
  participants: z.array(ParticipantSchema),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** What every refusal of a change to an ended session says (DESIGN decision 15). */
export const SESSION_ENDED_MESSAGE = "This session has ended. It is read-only until the host reopens it.";

/** Sessions per page of GET /api/users/me/sessions: a screenful of rows, one indexed query each. */
export const MY_SESSIONS_PAGE_SIZE = 20;

/** GET /api/users/me/sessions?page=N (N from 1): which page of my sessions. */
export const MySessionsQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a whole number from 1" })
    .int("page must be a whole number from 1")
    .min(1, "page must be a whole number from 1")
    .max(100_000, "page must be a whole number from 1")
    .default(1),
});
export type MySessionsQuery = z.infer<typeof MySessionsQuerySchema>;

/** One row of "My sessions": a session I host or joined, as I stand in it. */
export const MySessionSchema = z.object({
  session_id: z.string(),
  title: z.string(),
  /** My role in it now (a host who handed the role over is an editor). */
  role: RoleSchema,
  /** Participants not removed, signed-in and guests. */
  participant_count: z.number().int().nonnegative(),
  /** The latest of its creation, a join, a stored edit and its end. */
  last_activity_at: z.string(),
  /** When its host ended it (an archive), or null while it is live. */
  ended_at: z.string().nullable(),
});
export type MySession = z.infer<typeof MySessionSchema>;

/** A page of my sessions, the most recently active first. */
export const MySessionsPageSchema = z.object({
  sessions: z.array(MySessionSchema),
  page: z.number().int().min(1),
  page_size: z.number().int().min(1),
  has_more: z.boolean(),
});
export type MySessionsPage = z.infer<typeof MySessionsPageSchema>;

/** POST /api/session/{id}/end and DELETE /api/session/{id}: what the host gets back. */
export const SessionEndedResponseSchema = z.object({
  session_id: z.string(),
  ended_at: z.string().nullable(),
});
export type SessionEndedResponse = z.infer<typeof SessionEndedResponseSchema>;
export const SessionDeletedResponseSchema = z.object({ session_id: z.string(), message: z.string() });
export type SessionDeletedResponse = z.infer<typeof SessionDeletedResponseSchema>;

/** Texts of "My sessions" the server and the browser share. */
export const MY_SESSIONS_MESSAGES = {
  hostOnlyEnd: "Only the session host can end the session",
  hostOnlyDelete: "Only the session host can delete the session",
  deleted: "Session deleted",
  /** Told to everyone in a session its host deleted, as they are sent home. */
  deletedForYou: "The host deleted this session.",
} as const;
