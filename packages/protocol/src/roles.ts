import { z } from "zod";
import { RoleSchema, SessionIdSchema } from "./sessions";

/** The roles the host can give someone; the host role moves only by `transferHost`. */
export const GrantableRoleSchema = z.enum(["editor", "viewer"]);
export type GrantableRole = z.infer<typeof GrantableRoleSchema>;

/** A share link's key: 144 random bits, base64url (see docs/SECURITY.md "Roles and links"). */
export const ShareKeySchema = z
  .string()
  .min(1, "The link's key is missing")
  .max(64, "The link's key is too long")
  .regex(/^[A-Za-z0-9_-]+$/, "The link's key is malformed");

/** joinSession's payload with a share link's key (the bare session id is still accepted). */
export const JoinRequestSchema = z.object({ sessionId: SessionIdSchema, key: ShareKeySchema.optional() });
export type JoinRequest = z.infer<typeof JoinRequestSchema>;

const ParticipantIdSchema = z.string().min(1).max(128);

/** Host only: gives a participant the editor or the viewer role, live. */
export const SetRoleSchema = z.object({
  sessionId: SessionIdSchema,
  participantId: ParticipantIdSchema,
  role: GrantableRoleSchema,
});

/** Host only: one participant, by id (remove; hand the host role over). */
export const ParticipantRefSchema = z.object({
  sessionId: SessionIdSchema,
  participantId: ParticipantIdSchema,
});

/** Host only: locks (newcomers wait in the lobby) or unlocks the session. */
export const SetLockSchema = z.object({ sessionId: SessionIdSchema, isLocked: z.boolean() });

/** Host only: lets someone waiting in the lobby in, or turns them away. */
export const LobbyDecisionSchema = z.object({
  sessionId: SessionIdSchema,
  participantId: ParticipantIdSchema,
  admit: z.boolean(),
});

/** The two share links' keys (host only): `?key=` on the session's address. */
export const ShareKeysSchema = z.object({ editKey: ShareKeySchema, viewKey: ShareKeySchema });
export type ShareKeys = z.infer<typeof ShareKeysSchema>;

/** Someone waiting in the lobby, as the host sees them. */
export const LobbyEntrySchema = z.object({ id: z.string(), name: z.string(), isGuest: z.boolean() });
export type LobbyEntry = z.infer<typeof LobbyEntrySchema>;

/** To the room: someone's role changed (the host's `transferHost` sends two). */
export const RoleChangedSchema = z.object({
  sessionId: SessionIdSchema,
  participantId: z.string(),
  role: RoleSchema,
});
export type RoleChanged = z.infer<typeof RoleChangedSchema>;

/** To the room: the session was locked or unlocked. */
export const LockStateSchema = z.object({ sessionId: SessionIdSchema, isLocked: z.boolean() });
export type LockState = z.infer<typeof LockStateSchema>;

/** To the host's sockets: who is waiting now. */
export const LobbyUpdateSchema = z.object({ sessionId: SessionIdSchema, waiting: z.array(LobbyEntrySchema) });
export type LobbyUpdate = z.infer<typeof LobbyUpdateSchema>;

/** To someone waiting, or to someone removed: what happened, in words for them. */
export const SessionNoticeSchema = z.object({ sessionId: SessionIdSchema, message: z.string() });
export type SessionNotice = z.infer<typeof SessionNoticeSchema>;

/** What the host controls' refusals and notices say. */
export const ROLE_MESSAGES = {
  readOnly: "You can only view this session. Ask the host to let you edit.",
  hostOnly: "Only the session host can do that",
  locked: "This session is locked. Wait here until the host lets you in.",
  refused: "The host did not let you into this session.",
  removed: "The host removed you from this session.",
  removedLocked: "The host removed you from this session, and it is locked.",
  invalidLink: "This link is not valid for this session. Ask the host for a new one.",
  notParticipant: "That person is not a participant of this session",
  notWaiting: "That person is not waiting in the lobby",
  hostToGuest: "The host role can only go to a signed-in participant",
  notYourself: "The host cannot do that to themselves",
} as const;
