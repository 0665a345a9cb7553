import { z } from "zod";
import {
  LANGUAGE_MAIN_FILES,
  type Language,
  type LanguageRecord,
  languageOfExtension,
} from "./languages/index";
import { SessionIdSchema } from "./sessions";
import { utf8Bytes } from "./text";

/** Limits of a session's workspace: the server refuses what goes past them. */
export const WORKSPACE_LIMITS = {
  maxFiles: 500,
  maxFileBytes: 1024 * 1024,
  maxWorkspaceBytes: 10 * 1024 * 1024,
  /**
   * The session's whole Yjs document as stored and sent to a joiner: the text plus what Yjs
   * keeps of every edit (one character typed at a time, or deleted, still costs its bytes).
   */
  maxDocumentBytes: 20 * 1024 * 1024,
  maxPathBytes: 255,
  maxDepth: 16,
} as const;

/** What people read when a path or a file operation is refused. */
export const WORKSPACE_MESSAGES = {
  emptyPath: "Enter a name.",
  absolutePath: "A path cannot start with a slash.",
  dotDot: "A path cannot contain '..'.",
  dotGit: "A path cannot contain a '.git' folder.",
  controlCharacter: "A name cannot contain control characters.",
  backslash: "A name cannot contain a backslash.",
  tooLong: `A path cannot be longer than ${WORKSPACE_LIMITS.maxPathBytes} bytes.`,
  tooDeep: `Folders cannot be nested more than ${WORKSPACE_LIMITS.maxDepth} levels deep.`,
  exists: (path: string) => `"${path}" already exists.`,
  notFound: (path: string) => `"${path}" does not exist.`,
  idTaken: "This file id is already in use.",
  notDeleted: "Only a deleted file can be restored.",
  restoreText: "A restore names each file by its id, path and size: its text follows as an edit.",
  outsideRestore: "A restored file must lie in the restored folder.",
  underFile: (path: string) => `"${path}" is a file, not a folder.`,
  intoItself: "A folder cannot be moved into itself.",
  tooManyFiles: `A session holds at most ${WORKSPACE_LIMITS.maxFiles} files.`,
  fileTooLarge: `A file holds at most ${WORKSPACE_LIMITS.maxFileBytes / 1024 / 1024} MiB.`,
  workspaceTooLarge: `A session's files hold at most ${WORKSPACE_LIMITS.maxWorkspaceBytes / 1024 / 1024} MiB in all.`,
  documentTooLarge: `This session's document has reached its ${WORKSPACE_LIMITS.maxDocumentBytes / 1024 / 1024} MiB limit (its text and its edit history).`,
} as const;

export type PathCheck = { ok: true; path: string } | { ok: false; message: string };

// C0 controls, DEL and C1 controls: none belongs in a file name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Normalises a workspace path (`./src//a.js/` → `src/a.js`) or says why it is refused:
 * absolute, `..`, a `.git` segment, control characters, a backslash, over 255 bytes or
 * deeper than 16 levels. The same rules run in the browser (to warn early) and the server.
 */
export function checkPath(raw: string): PathCheck {
  if (CONTROL.test(raw)) return { ok: false, message: WORKSPACE_MESSAGES.controlCharacter };
  if (raw.includes("\\")) return { ok: false, message: WORKSPACE_MESSAGES.backslash };
  const trimmed = raw.trim();
  if (trimmed.startsWith("/")) return { ok: false, message: WORKSPACE_MESSAGES.absolutePath };
  const segments = trimmed.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.length === 0) return { ok: false, message: WORKSPACE_MESSAGES.emptyPath };
  if (segments.some((s) => s.trim() === "..")) return { ok: false, message: WORKSPACE_MESSAGES.dotDot };
  if (segments.some((s) => s.trim().toLowerCase() === ".git")) {
    return { ok: false, message: WORKSPACE_MESSAGES.dotGit };
  }
  const path = segments.join("/");
  if (utf8Bytes(path) > WORKSPACE_LIMITS.maxPathBytes) {
    return { ok: false, message: WORKSPACE_MESSAGES.tooLong };
  }
  if (segments.length > WORKSPACE_LIMITS.maxDepth) return { ok: false, message: WORKSPACE_MESSAGES.tooDeep };
  return { ok: true, path };
}

/** A workspace path as it arrives: a string the server normalises with `checkPath`. */
export const WorkspacePathSchema = z
  .string()
  .max(4 * WORKSPACE_LIMITS.maxPathBytes, WORKSPACE_MESSAGES.tooLong)
  .transform((raw, ctx) => {
    const checked = checkPath(raw);
    if (checked.ok) return checked.path;
    ctx.addIssue({ code: "custom", message: checked.message });
    return z.NEVER;
  });

/**
 * A file's id: the name of its root text in the session's Y.Doc. The server makes them; a
 * browser makes one for a file created offline, so that what is typed in it meanwhile has a
 * text to live in (the server takes the id only if it never named anything in the document).
 */
export const FileIdSchema = z.string().regex(/^f-[A-Za-z0-9_-]{16}$/, "Invalid file id");

export const CreateFileSchema = z.object({
  sessionId: SessionIdSchema,
  path: WorkspacePathSchema,
  /** Folders get no content; a file may start with some (at most the file limit). */
  kind: z.enum(["file", "folder"]),
  content: z.string().max(WORKSPACE_LIMITS.maxFileBytes).optional(),
  /** The file's id, when the browser chose it (a create made offline, replayed). */
  id: FileIdSchema.optional(),
});
export type CreateFile = z.input<typeof CreateFileSchema>;

export const RenamePathSchema = z.object({
  sessionId: SessionIdSchema,
  from: WorkspacePathSchema,
  to: WorkspacePathSchema,
});
export type RenamePath = z.input<typeof RenamePathSchema>;

export const DeletePathSchema = z.object({ sessionId: SessionIdSchema, path: WorkspacePathSchema });
export type DeletePath = z.input<typeof DeletePathSchema>;

/**
 * Undo of a delete: the deleted files come back under their own ids (so their texts, and the
 * replay's history of them, continue), empty, and the folders with them; everything lies at
 * `path` or under it. The text does not travel here (a folder may hold far more than one
 * socket message): once the restore is accepted the browser puts each file's text back as an
 * edit of its own, sent on the Yjs lane like typing. `bytes` is the size of that text, so a
 * restore whose texts could not fit the limits is refused before it changes anything.
 */
export const RestorePathSchema = z.object({
  sessionId: SessionIdSchema,
  path: WorkspacePathSchema,
  files: z
    .array(
      z.strictObject(
        {
          id: FileIdSchema,
          path: WorkspacePathSchema,
          bytes: z.number().int().min(0).max(WORKSPACE_LIMITS.maxFileBytes, WORKSPACE_MESSAGES.fileTooLarge),
        },
        // A client sending the text expects the server to write it: refused, not restored empty.
        {
          error: (issue) => (issue.code === "unrecognized_keys" ? WORKSPACE_MESSAGES.restoreText : undefined),
        },
      ),
    )
    .max(WORKSPACE_LIMITS.maxFiles, WORKSPACE_MESSAGES.tooManyFiles),
  folders: z.array(WorkspacePathSchema).max(WORKSPACE_LIMITS.maxFiles),
});
export type RestorePath = z.input<typeof RestorePathSchema>;

/** The answer of a file operation: the normalised path it ended at. */
export const PathAckSchema = z.object({ path: z.string() });

/** The language a file runs with, by its extension, or undefined when Run Code cannot run it. */
export function runnableLanguage(path: string): Language | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  const record = languageOfExtension(extension);
  const sources: readonly string[] | undefined = record
    ? ((record as LanguageRecord).sourceExtensions ?? record.extensions)
    : undefined;
  // A header (C's `.h`) belongs to its language but is not where a run starts.
  return record && sources?.includes(extension) ? record.id : undefined;
}

/**
 * Where Run Code starts: the open file when its extension is a language's (which picks the
 * language), otherwise the session language's main file.
 */
export function runEntry(
  openFile: string | undefined,
  sessionLanguage: Language,
): { language: Language; entry: string } {
  const openLanguage = openFile === undefined ? undefined : runnableLanguage(openFile);
  if (openFile !== undefined && openLanguage) return { language: openLanguage, entry: openFile };
  return { language: sessionLanguage, entry: LANGUAGE_MAIN_FILES[sessionLanguage] };
}

/** Folders every new session starts with (besides `src/`, which holds the main file). */
export const STARTER_FOLDERS = ["src/components"] as const;
