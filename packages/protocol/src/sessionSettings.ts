import { z } from "zod";
import { SessionIdSchema } from "./sessions";

/**
 * A session's settings that every browser of it obeys, stored with the session. `completions`
 * false is interview mode: nobody gets completion lists (as CoderPad offers); diagnostics,
 * hover and the rest stay.
 */
export const SessionSettingsSchema = z.object({
  sessionId: SessionIdSchema,
  completions: z.boolean(),
});
export type SessionSettings = z.infer<typeof SessionSettingsSchema>;

/** The host changes one or more settings; what is left out keeps its value. */
export const SetSessionSettingsSchema = z.object({
  sessionId: SessionIdSchema,
  completions: z.boolean().optional(),
});
export type SetSessionSettings = z.infer<typeof SetSessionSettingsSchema>;
