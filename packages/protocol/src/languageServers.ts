import { z } from "zod";
import { SessionIdSchema } from "./sessions";
import { WorkspacePathSchema } from "./workspace";

// Shared language servers (docs/intelligence.md): the server runs one per session and family
// (clangd for C and C++) and answers each person's requests; these are the wire shapes.

/** Which shared language server a request is for, by its language family. */
export const LanguageServerIdSchema = z.enum(["clangd"]);
export type LanguageServerId = z.infer<typeof LanguageServerIdSchema>;

/** A place in a file: zero-based line, and column in UTF-16 code units (LSP's and Monaco's unit). */
export const TextPositionSchema = z.object({
  line: z.number().int().min(0).max(10_000_000),
  character: z.number().int().min(0).max(10_000_000),
});
export type TextPosition = z.infer<typeof TextPositionSchema>;

export const TextRangeSchema = z.object({ start: TextPositionSchema, end: TextPositionSchema });
export type TextRange = z.infer<typeof TextRangeSchema>;

/**
 * What a request says of the text it was made on: `textDigest` of the file as the asker saw
 * it. The server answers only on that same text (it waits briefly for edits still on their
 * way), so an answer never lands on a different version of the file.
 */
export const DocumentAtSchema = z.object({
  sessionId: SessionIdSchema,
  path: WorkspacePathSchema,
  digest: z.string().regex(/^[0-9a-f]{8}:[0-9]+$/, "not a text digest"),
});

export const PositionRequestSchema = DocumentAtSchema.extend({ position: TextPositionSchema });
export type PositionRequest = z.input<typeof PositionRequestSchema>;

export const RenameRequestSchema = PositionRequestSchema.extend({
  newName: z.string().min(1).max(256),
});

export const FormatRequestSchema = DocumentAtSchema.extend({
  tabSize: z.number().int().min(1).max(16),
  insertSpaces: z.boolean(),
});

export const OpenLanguageServerSchema = z.object({
  sessionId: SessionIdSchema,
  server: LanguageServerIdSchema,
});

/** One problem a language server reports on a file. */
export const LspDiagnosticSchema = z.object({
  range: TextRangeSchema,
  severity: z.enum(["error", "warning", "info", "hint"]),
  message: z.string(),
  code: z.string().optional(),
});
export type LspDiagnostic = z.infer<typeof LspDiagnosticSchema>;

/** A file's problems, all of them: each report replaces the previous one for that file. */
export const FileDiagnosticsSchema = z.object({
  path: z.string(),
  diagnostics: z.array(LspDiagnosticSchema),
});
export type FileDiagnostics = z.infer<typeof FileDiagnosticsSchema>;

/** Broadcast to the session's sockets on this node whenever the server reports on a file. */
export const LspDiagnosticsSchema = z.object({
  sessionId: z.string(),
  server: LanguageServerIdSchema,
  files: z.array(FileDiagnosticsSchema),
});
export type LspDiagnostics = z.infer<typeof LspDiagnosticsSchema>;

/** The answer to opening: the server runs, with what it reported so far. */
export const LanguageServerOpenedSchema = z.object({
  server: LanguageServerIdSchema,
  files: z.array(FileDiagnosticsSchema),
});

/** An answer made on a text that changed before it came back is dropped: `stale`, no result. */
const answer = <T extends z.ZodType>(result: T) =>
  z.discriminatedUnion("stale", [
    z.object({ stale: z.literal(false), result }),
    z.object({ stale: z.literal(true) }),
  ]);

export const TextEditSchema = z.object({ range: TextRangeSchema, newText: z.string() });
export type TextEdit = z.infer<typeof TextEditSchema>;

export const CompletionEntrySchema = z.object({
  label: z.string(),
  /** LSP's CompletionItemKind number (1-25). */
  kind: z.number().int().min(1).max(25).optional(),
  detail: z.string().optional(),
  documentation: z.string().optional(),
  /** Replaces `range` (or the word at the caret); a snippet when `isSnippet`. */
  insertText: z.string(),
  isSnippet: z.boolean(),
  range: TextRangeSchema.optional(),
  filterText: z.string().optional(),
  sortText: z.string().optional(),
});
export type CompletionEntry = z.infer<typeof CompletionEntrySchema>;

export const CompletionListSchema = z.object({
  isIncomplete: z.boolean(),
  items: z.array(CompletionEntrySchema),
});

export const HoverInfoSchema = z
  .object({ markdown: z.string(), range: TextRangeSchema.optional() })
  .nullable();

/** Places in workspace files (a system header the browser cannot open is left out). */
export const LocationsSchema = z.array(z.object({ path: z.string(), range: TextRangeSchema }));

export const SignatureInfoSchema = z
  .object({
    signatures: z.array(
      z.object({
        label: z.string(),
        documentation: z.string().optional(),
        parameters: z.array(
          z.object({
            label: z.union([z.string(), z.tuple([z.number().int(), z.number().int()])]),
            documentation: z.string().optional(),
          }),
        ),
      }),
    ),
    activeSignature: z.number().int(),
    activeParameter: z.number().int(),
  })
  .nullable();

/** Edits per workspace file; the asker applies them through the shared document. */
export const WorkspaceEditsSchema = z.array(z.object({ path: z.string(), edits: z.array(TextEditSchema) }));

export const CompletionAnswerSchema = answer(CompletionListSchema);
export const HoverAnswerSchema = answer(HoverInfoSchema);
export const LocationsAnswerSchema = answer(LocationsSchema);
export const SignatureAnswerSchema = answer(SignatureInfoSchema);
export const EditsAnswerSchema = answer(WorkspaceEditsSchema);

export const LANGUAGE_SERVER_MESSAGES = {
  busy: "The language server is busy: too many sessions use one right now. Try again in a few minutes.",
  unavailable: "C and C++ intelligence is not available on this server.",
  notServed: "No language server serves this file.",
  notLoaded: "The session's files are not open on this server.",
  failed: "The language server did not answer.",
} as const;

/** Extensions of the files each shared language server serves. */
export const LANGUAGE_SERVER_EXTENSIONS: Record<LanguageServerId, readonly string[]> = {
  clangd: ["c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl"],
};

/** The shared language server of a workspace path, by its extension; undefined when none. */
export function languageServerOf(path: string): LanguageServerId | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  // A name that starts with its only dot (`.c`) is a hidden file without an extension.
  if (dot <= 0) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  for (const [id, extensions] of Object.entries(LANGUAGE_SERVER_EXTENSIONS)) {
    if (extensions.includes(extension)) return LanguageServerIdSchema.parse(id);
  }
  return undefined;
}

/**
 * A short fingerprint of a text (FNV-1a over its UTF-16 code units, and its length), so a
 * request names the exact text it was made on without sending it. Both sides compute it.
 */
export function textDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16).padStart(8, "0")}:${text.length}`;
}
