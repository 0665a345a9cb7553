import { z } from "zod";
import { LIMITS } from "./limits";

/** The name shown, everywhere a name is shown, for the author or participant of a deleted account. */
export const DELETED_USER_NAME = "Deleted user";

/** GET /api/auth/user/{id}/deletion: what deleting the account would do, for its dialog. */
export const AccountDeletionPreviewSchema = z.object({
  /** The account signs in with a password (else it confirms with GitHub). */
  hasPassword: z.boolean(),
  /** Sessions it hosts that others took part in: ended, and kept for them as archives. */
  sessionsArchived: z.number().int().min(0),
  /** Sessions it hosts that nobody else took part in: deleted with their files. */
  sessionsDeleted: z.number().int().min(0),
});
export type AccountDeletionPreview = z.infer<typeof AccountDeletionPreviewSchema>;

/**
 * DELETE /api/auth/user/{id}: confirmed with the account's password, or, for an account
 * without one, with the one-time code of a GitHub sign-in made just now by the same GitHub user.
 */
export const DeleteAccountBodySchema = z.union([
  z.object({
    password: z
      .string({ error: "Password is required" })
      .min(1, "Password is required")
      .max(LIMITS.passwordMax, "Password is incorrect"),
  }),
  z.object({
    githubCode: z
      .string({ error: "Code is required" })
      .min(1, "Code is required")
      .max(2048, "Code is too long"),
  }),
]);
export type DeleteAccountBody = z.infer<typeof DeleteAccountBodySchema>;

/** Answer of DELETE /api/auth/user/{id}. */
export const DeleteAccountResponseSchema = z.object({
  message: z.string(),
  sessionsArchived: z.number().int().min(0),
  sessionsDeleted: z.number().int().min(0),
});
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponseSchema>;

/**
 * `accountDeleted`, to each session a deleted account took part in: from now on its name is
 * "Deleted user" there (the chat's messages and the pull requests already say so on the server).
 */
export const AccountDeletedSchema = z.object({ sessionId: z.string(), userId: z.string() });
export type AccountDeleted = z.infer<typeof AccountDeletedSchema>;

/** Texts of account deletion and export. */
export const ACCOUNT_MESSAGES = {
  deleted: "Your account was deleted",
  wrongPassword: "Password is incorrect",
  needsGithub: "This account has no password: confirm with GitHub",
  githubMismatch: "That GitHub sign-in is not this account's; nothing was deleted",
  githubExpired: "The GitHub confirmation expired or was used; please confirm again",
  ownOnly: "You can only delete or export your own account",
} as const;

/** The export's file name: `ensemble-export-{date}.zip`. */
export const exportFileName = (date: Date) => `ensemble-export-${date.toISOString().slice(0, 10)}.zip`;
