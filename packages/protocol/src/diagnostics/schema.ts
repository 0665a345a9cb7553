import { z } from "zod";
import { SessionIdSchema } from "../sessions";
import { WorkspacePathSchema } from "../workspace";

/** Bounds of a run's diagnostics, kept per session and sent to everyone. */
export const DIAGNOSTIC_LIMITS = {
  /** Diagnostics of one run; the rest are dropped (the first ones are the ones that matter). */
  maxDiagnostics: 200,
  /** Characters of one message; longer ones end with an ellipsis. */
  maxMessageLength: 500,
} as const;

/** One error or warning at a place in a workspace file (lines and columns from 1). */
export const DiagnosticSchema = z.object({
  path: WorkspacePathSchema,
  line: z.number().int().positive(),
  column: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
  endColumn: z.number().int().positive().optional(),
  severity: z.enum(["error", "warning"]),
  message: z.string().max(DIAGNOSTIC_LIMITS.maxMessageLength),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/**
 * runDiagnostics: what the session's last run reported on its files, for everyone. An empty
 * list clears them (a run starts); `runId` is absent then.
 */
export const RunDiagnosticsSchema = z.object({
  sessionId: SessionIdSchema,
  runId: z.string().max(64).optional(),
  diagnostics: z.array(DiagnosticSchema).max(DIAGNOSTIC_LIMITS.maxDiagnostics),
});
export type RunDiagnostics = z.infer<typeof RunDiagnosticsSchema>;
