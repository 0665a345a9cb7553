import { z } from "zod";
import { LanguageSchema } from "./languages/index";
import { SessionIdSchema } from "./sessions";

/** Replay's shape: what the slider is drawn from, and what a seek answers. */
export const REPLAY_LIMITS = {
  /** Bars of the slider's activity strip (edits per slice of the session's time). */
  activityBuckets: 120,
} as const;

/** What a refused replay request says. */
export const REPLAY_MESSAGES = {
  empty: "This session has no recorded history yet",
  restored: "Restored the version of that moment as a new edit",
} as const;

/** A moment of the session, in milliseconds since the Unix epoch (the server's clock). */
export const ReplayMomentSchema = z.number().int().min(0).max(8.64e15);

/** Asks for a session's timeline (any participant). */
export const ReplayTimelineRequestSchema = z.object({ sessionId: SessionIdSchema });

/** Someone who changed the document; `id` null is the server itself (new files, git, merges, restores). */
export const ReplayAuthorSchema = z.object({ id: z.string().nullable(), name: z.string() });
export type ReplayAuthor = z.infer<typeof ReplayAuthorSchema>;

/** Something that happened besides typing: a terminal entry (runs and their output) or a pull request event. */
export const ReplayEventSchema = z.object({
  at: ReplayMomentSchema,
  kind: z.enum(["input", "output", "error", "clear", "pr-created", "pr-reviewed"]),
  text: z.string(),
});
export type ReplayEvent = z.infer<typeof ReplayEventSchema>;

/**
 * A session's whole history as the slider shows it: its first and last edit (null when none was
 * recorded), the edits counted per slice of that span, the authors, and the other events.
 */
export const ReplayTimelineSchema = z.object({
  start: ReplayMomentSchema.nullable(),
  end: ReplayMomentSchema.nullable(),
  edits: z.number().int().min(0),
  activity: z.array(z.number().int().min(0)),
  authors: z.array(ReplayAuthorSchema),
  events: z.array(ReplayEventSchema),
});
export type ReplayTimeline = z.infer<typeof ReplayTimelineSchema>;

/** Asks for the project as it was at `at` (any participant). */
export const SeekReplaySchema = z.object({ sessionId: SessionIdSchema, at: ReplayMomentSchema });
export type SeekReplay = z.input<typeof SeekReplaySchema>;

/**
 * A run of consecutive characters (UTF-16 code units) one author typed: the author's index in
 * the frame's `authors`, and the run's length. Pairs, not objects: a long session's file has
 * thousands of runs, and each would otherwise repeat its author's id.
 */
export const ReplayRunSchema = z.tuple([z.number().int().min(0), z.number().int().min(1)]);
export type ReplayRun = z.infer<typeof ReplayRunSchema>;

/** One file at a moment: its text and who typed each part of it, in order. */
export const ReplayFileSchema = z.object({
  path: z.string(),
  content: z.string(),
  runs: z.array(ReplayRunSchema),
});
export type ReplayFile = z.infer<typeof ReplayFileSchema>;

/**
 * The project at a moment: every edit stored at or before `at` applied, none after;
 * `lastEditAt` is the time of the last of them (null: none yet). Restoring it brings back its
 * files, its folders (empty ones too) and its language.
 */
export const ReplayFrameSchema = z.object({
  at: ReplayMomentSchema,
  /** The participant ids the runs name by index (null: the server). */
  authors: z.array(z.string().nullable()),
  lastEditAt: ReplayMomentSchema.nullable(),
  files: z.array(ReplayFileSchema),
  /** Every folder at that moment, empty ones included, sorted. */
  folders: z.array(z.string()),
  /** The session's language at that moment. */
  language: LanguageSchema,
});
export type ReplayFrame = z.infer<typeof ReplayFrameSchema>;

/** The host brings the live files back to how they were at `at`, as a new edit everyone receives. */
export const RestoreVersionSchema = z.object({ sessionId: SessionIdSchema, at: ReplayMomentSchema });

/** What a restore changed: files it could not bring back (a limit or a clash) are listed with why. */
export const RestoreVersionAckSchema = z.object({
  refused: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type RestoreVersionAck = z.infer<typeof RestoreVersionAckSchema>;
