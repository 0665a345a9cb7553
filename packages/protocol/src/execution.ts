import { z } from "zod";
import { GithubTargetSchema } from "./git";
import { SessionIdSchema } from "./sessions";
import { utf8Bytes } from "./text";
import { WorkspacePathSchema } from "./workspace";

/**
 * Code execution speaks the Piston v2 API (engineer-man/piston): field names, status
 * vocabulary and 400 `{message}` texts as Piston's, so a real Piston can be plugged in.
 */
export const EXECUTION_LIMITS = {
  /** Files per request; the first one runs. */
  maxFiles: 16,
  /** A file name: a relative path (see runFileNameProblem), in UTF-8 bytes. */
  maxFileNameLength: 255,
  maxArgs: 64,
  maxArgLength: 4096,
  /** Terminal history kept per session (entries, and bytes of content). */
  terminalHistoryEntries: 500,
  terminalHistoryBytes: 1024 * 1024,
  /** Longest terminal command line. */
  terminalCommandMax: 1000,
  /** Longest line typed into a running program (characters, before its newline). */
  stdinLineMax: 4096,
  /** Input a run takes in all, in UTF-8 bytes (lines typed in the terminal, or Piston's stdin messages). */
  stdinRunMaxBytes: 64 * 1024,
  /** A live run's output reaches everyone in batches at most this often. */
  outputBatchMs: 50,
  /** Stop (or Ctrl+C) sends SIGINT; a program still running this much later is killed. */
  stopGraceMs: 2000,
} as const;

/** `status` of a stage: null on success, otherwise Piston's codes. */
export const RUN_STATUSES = ["RE", "SG", "TO", "OL", "EL", "XX"] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** The six numeric limit fields of a request, as Piston names them. */
export const LIMIT_FIELDS = [
  "compile_memory_limit",
  "run_memory_limit",
  "compile_timeout",
  "run_timeout",
  "compile_cpu_time",
  "run_cpu_time",
] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/**
 * Why a run's file name is refused, or undefined when it is fine. A name is a relative path
 * inside the run's work folder (`src/lib/util.js`): no leading `/`, no empty, `.` or `..`
 * segment, no NUL, at most 255 UTF-8 bytes. The sandbox creates its folders.
 */
export function runFileNameProblem(name: string): string | undefined {
  if (name.length === 0) return "is empty";
  if (utf8Bytes(name) > EXECUTION_LIMITS.maxFileNameLength)
    return `is longer than ${EXECUTION_LIMITS.maxFileNameLength} bytes`;
  if (name.includes("\0")) return "contains NUL";
  if (name.startsWith("/")) return "is absolute";
  if (name.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) {
    return "has an empty, '.' or '..' segment";
  }
  return undefined;
}

const FileSchema = z.object(
  {
    name: z
      .string({ error: "files[].name must be a string" })
      .refine(
        (n) => runFileNameProblem(n) === undefined,
        "files[].name must be a relative path (no leading '/', no empty, '.' or '..' segment, no NUL)",
      )
      .optional(),
    content: z.string({ error: "files[].content is required as a string" }),
    encoding: z
      .enum(["utf8", "base64", "hex"], { error: "files[].encoding must be utf8, base64 or hex" })
      .optional(),
  },
  { error: "files[] must be objects" },
);

/**
 * Whole-number-or-absent limit field, checked against the server's maximum later (the maximum
 * is configuration, not protocol). Piston treats a falsy value, `0` included, as "the default".
 */
const limitField = (name: LimitField) =>
  z
    .unknown()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === 0 || value === false || value === "")
        return undefined;
      if (typeof value !== "number" || !Number.isFinite(value)) {
        ctx.addIssue({ code: "custom", message: `If specified, ${name} must be a number` });
        return z.NEVER;
      }
      // Bytes and milliseconds are whole: rlimits and cgroup files take integers only.
      if (!Number.isSafeInteger(value)) {
        ctx.addIssue({ code: "custom", message: `If specified, ${name} must be a whole number` });
        return z.NEVER;
      }
      return value;
    })
    .optional();

/** POST /api/v2/execute. Unknown fields are ignored, as Piston does. */
export const ExecuteRequestSchema = z.object({
  language: z
    .string({ error: "language is required as a string" })
    .min(1, "language is required as a string"),
  version: z.string({ error: "version is required as a string" }).min(1, "version is required as a string"),
  files: z
    .array(FileSchema, { error: "files is required as an array" })
    .min(1, "files must contain at least one file")
    .max(EXECUTION_LIMITS.maxFiles, `files may hold at most ${EXECUTION_LIMITS.maxFiles} files`)
    .refine((files) => files.some((f) => (f.encoding ?? "utf8") === "utf8"), {
      message: "files must include at least one utf8 encoded file",
    }),
  stdin: z.string({ error: "stdin must be a string" }).optional(),
  args: z
    .array(
      z
        .string({ error: "args must be an array of strings" })
        .max(
          EXECUTION_LIMITS.maxArgLength,
          `each arg may be at most ${EXECUTION_LIMITS.maxArgLength} characters`,
        )
        .refine((a) => !a.includes("\0"), "args may not contain NUL"),
      { error: "args must be an array of strings" },
    )
    .max(EXECUTION_LIMITS.maxArgs, `args may hold at most ${EXECUTION_LIMITS.maxArgs} entries`)
    .optional(),
  compile_memory_limit: limitField("compile_memory_limit"),
  run_memory_limit: limitField("run_memory_limit"),
  compile_timeout: limitField("compile_timeout"),
  run_timeout: limitField("run_timeout"),
  compile_cpu_time: limitField("compile_cpu_time"),
  run_cpu_time: limitField("run_cpu_time"),
});
export type ExecuteRequest = z.infer<typeof ExecuteRequestSchema>;
export type ExecuteRequestInput = z.input<typeof ExecuteRequestSchema>;

/** One stage's result. `code` is null whenever `signal` is set. */
export const StageResultSchema = z.object({
  stdout: z.string(),
  stderr: z.string(),
  output: z.string(),
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  message: z.string().nullable(),
  status: RunStatusSchema.nullable(),
  /** Ours, not Piston's: true when an output cap cut stdout or stderr. */
  truncated: z.boolean().optional(),
  /** Ours, not Piston's: on a compile, true when an earlier run's program of the same sources was reused. */
  cached: z.boolean().optional(),
  cpu_time: z.number().nullable(),
  wall_time: z.number().nullable(),
  /** Peak memory in bytes, where the machine measures it. */
  memory: z.number().nullable(),
});
export type StageResult = z.infer<typeof StageResultSchema>;

/** Piston's answer: a compiled language's `compile`, and `run` unless the compile failed. */
export const ExecuteResponseSchema = z.object({
  language: z.string(),
  version: z.string(),
  run: StageResultSchema.optional(),
  compile: StageResultSchema.optional(),
});
export type ExecuteResponse = z.infer<typeof ExecuteResponseSchema>;

/** GET /api/v2/runtimes */
export const RuntimeSchema = z.object({
  language: z.string(),
  version: z.string(),
  aliases: z.array(z.string()),
  runtime: z.string().optional(),
});
export type Runtime = z.infer<typeof RuntimeSchema>;

/** Messages the browser shows as they are (spec editor-screen §8). */
export const EXECUTION_MESSAGES = {
  inProgress: "Code is already running in this session. Wait for it to finish.",
  queueFull: "The code runner is busy. Try again in a few seconds.",
  tooManyRuns: "Too many runs. Please wait a minute before running code again.",
  unavailable: "Code execution is not available on this server: bubblewrap (bwrap) is not installed.",
  notRunning: "No program is running in this session.",
  inputClosed: "The program's input is closed.",
  inputNotAllowed: "Only the participant who started the run can type into it, unless they allow everyone.",
  onlyStarter: "Only the participant who started the run can change who may type into it.",
  inputTooLong: `A line typed into a program may be at most ${EXECUTION_LIMITS.stdinLineMax} characters.`,
  inputTooMuch: `A run takes at most ${EXECUTION_LIMITS.stdinRunMaxBytes / 1024} KiB of input.`,
} as const;

/** The result line of a run someone stopped. */
export const stoppedMessage = (name: string) => `Stopped by ${name}.`;

// ---- shared terminal (socket events) ----

export const TerminalEntrySchema = z.object({
  type: z.enum(["input", "output", "error", "clear"]),
  content: z.string(),
  /**
   * The server's order of a stored entry (history and broadcasts alike), so a browser can
   * merge a broadcast and the history that raced with it without showing an entry twice or
   * losing one. Absent on entries only one browser shows.
   */
  seq: z.number().int().positive().optional(),
});
export type TerminalEntry = z.infer<typeof TerminalEntrySchema>;

/**
 * The workspace file the sender has open. Run Code runs it when it is a `.js`, `.mjs` or
 * `.py` file, and the session language's main file otherwise.
 */
const OpenFileSchema = WorkspacePathSchema.optional();

/** runCode: runs the session's project (its files and language as every participant sees them). */
export const RunCodeSchema = z.object({
  sessionId: SessionIdSchema,
  file: OpenFileSchema,
  stdin: z
    .string()
    .max(64 * 1024, "stdin is too long")
    .optional(),
  args: z.array(z.string().max(EXECUTION_LIMITS.maxArgLength)).max(EXECUTION_LIMITS.maxArgs).optional(),
});
export type RunCode = z.infer<typeof RunCodeSchema>;

/**
 * The run's result for its sender. Its terminal entries are not repeated here: everyone,
 * the sender included, receives them once, as the session's `executionResult`.
 */
export const RunCodeAckSchema = z.object({
  language: z.string(),
  version: z.string(),
  run: StageResultSchema.optional(),
  compile: StageResultSchema.optional(),
});

/** terminalCommand: a line typed in the shared terminal (`run`, `clear`, `help`, ...). */
export const TerminalCommandSchema = z.object({
  sessionId: SessionIdSchema,
  command: z
    .string()
    .max(EXECUTION_LIMITS.terminalCommandMax, "Command is too long")
    .refine((c) => !c.includes("\0"), "Command may not contain NUL"),
  /** The file the sender has open, for `run` (see RunCodeSchema). */
  file: OpenFileSchema,
  /**
   * The host's GitHub connection, sent by their browser with `git push|pull|auth` lines only;
   * used for that line and never stored (the stored line is the typed text).
   */
  github: GithubTargetSchema.optional(),
});
export type TerminalCommand = z.infer<typeof TerminalCommandSchema>;

/** Accepted: the line and its answer reach everyone, the sender included, as `terminalUpdate`s. */
export const TerminalCommandAckSchema = z.null();

export const ExecutionResultSchema = z.object({
  sessionId: z.string(),
  terminalEntries: z.array(TerminalEntrySchema),
});
export type ExecutionResult = z.infer<typeof ExecutionResultSchema>;

export const TerminalUpdateSchema = z.object({
  sessionId: z.string(),
  entry: TerminalEntrySchema.optional(),
  entries: z.array(TerminalEntrySchema).optional(),
});
export type TerminalUpdate = z.infer<typeof TerminalUpdateSchema>;

export const TerminalHistorySchema = z.object({
  sessionId: z.string(),
  history: z.array(TerminalEntrySchema),
});
export type TerminalHistory = z.infer<typeof TerminalHistorySchema>;

/** Whether the session's single-flight run is in progress, and who started it. */
export const RunStateUpdateSchema = z.object({
  sessionId: z.string(),
  isRunning: z.boolean(),
  by: z.string().nullable(),
  /** The starter's participant id: they type into the run by default. */
  byId: z.string().nullable().optional(),
  /** The running program's stdin is open (until Ctrl+D or its end). */
  inputOpen: z.boolean().optional(),
  /** The starter lets every editor type into the run. */
  othersMayType: z.boolean().optional(),
});
export type RunStateUpdate = z.infer<typeof RunStateUpdateSchema>;

/** runInput: one line typed into the running program (its newline is added). */
export const RunInputSchema = z.object({
  sessionId: SessionIdSchema,
  line: z
    .string()
    .max(EXECUTION_LIMITS.stdinLineMax, EXECUTION_MESSAGES.inputTooLong)
    .refine(
      (line) => !/[\0\r\n]/.test(line),
      "A line typed into a program may not contain NUL or a line break",
    ),
});
export type RunInput = z.infer<typeof RunInputSchema>;

/** setRunInputAccess: the starter lets every editor type into the run, or only themselves. */
export const RunInputAccessSchema = z.object({
  sessionId: SessionIdSchema,
  othersMayType: z.boolean(),
});
