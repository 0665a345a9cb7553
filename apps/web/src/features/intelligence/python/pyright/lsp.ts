import { z } from "zod";

// The parts of LSP answers we read, parsed: the worker is third-party code.

const PositionSchema = z.object({ line: z.number().int(), character: z.number().int() });
const RangeSchema = z.object({ start: PositionSchema, end: PositionSchema });
export type LspRange = z.infer<typeof RangeSchema>;

const MarkupSchema = z.union([
  z.string(),
  z.object({ kind: z.string(), value: z.string() }),
  z.object({ language: z.string(), value: z.string() }),
]);

const TextEditSchema = z.object({ range: RangeSchema, newText: z.string() });
const InsertReplaceSchema = z.object({ insert: RangeSchema, replace: RangeSchema, newText: z.string() });

export const CompletionItemSchema = z.object({
  label: z.string(),
  kind: z.number().int().optional(),
  detail: z.string().optional(),
  documentation: MarkupSchema.optional(),
  sortText: z.string().optional(),
  filterText: z.string().optional(),
  insertText: z.string().optional(),
  insertTextFormat: z.number().int().optional(),
  textEdit: z.union([TextEditSchema, InsertReplaceSchema]).optional(),
  additionalTextEdits: z.array(TextEditSchema).optional(),
  // Kept verbatim for completionItem/resolve.
  data: z.unknown().optional(),
});
export type CompletionItem = z.infer<typeof CompletionItemSchema>;

const CompletionAnswerSchema = z
  .union([
    z.array(CompletionItemSchema),
    z.object({ isIncomplete: z.boolean().optional(), items: z.array(CompletionItemSchema) }),
  ])
  .nullable();

/** A completion answer as one shape; anything unreadable is no items. */
export function parseCompletions(raw: unknown): { items: CompletionItem[]; isIncomplete: boolean } {
  const parsed = CompletionAnswerSchema.safeParse(raw);
  if (!parsed.success || parsed.data === null) return { items: [], isIncomplete: false };
  return Array.isArray(parsed.data)
    ? { items: parsed.data, isIncomplete: false }
    : { items: parsed.data.items, isIncomplete: parsed.data.isIncomplete ?? false };
}

const HoverSchema = z
  .object({ contents: z.union([MarkupSchema, z.array(MarkupSchema)]), range: RangeSchema.optional() })
  .nullable();

/** Hover text as markdown paragraphs, and the range it is about. */
export function parseHover(raw: unknown): { markdown: string[]; range?: LspRange } | null {
  const parsed = HoverSchema.safeParse(raw);
  if (!parsed.success || parsed.data === null) return null;
  const contents = Array.isArray(parsed.data.contents) ? parsed.data.contents : [parsed.data.contents];
  const markdown = contents.map(toMarkdown).filter((text) => text.trim() !== "");
  if (markdown.length === 0) return null;
  return parsed.data.range ? { markdown, range: parsed.data.range } : { markdown };
}

/** LSP documentation (plain, markdown or a code block) as markdown. */
export function toMarkdown(value: z.infer<typeof MarkupSchema>): string {
  if (typeof value === "string") return value;
  if ("language" in value) return `\`\`\`${value.language}\n${value.value}\n\`\`\``;
  return value.kind === "plaintext" ? value.value.replace(/[\\`*_{}[\]()#+\-.!<>]/g, "\\$&") : value.value;
}

const LocationSchema = z.object({ uri: z.string(), range: RangeSchema });
const LocationLinkSchema = z.object({
  targetUri: z.string(),
  targetRange: RangeSchema,
  targetSelectionRange: RangeSchema,
});
const DefinitionSchema = z
  .union([LocationSchema, z.array(z.union([LocationSchema, LocationLinkSchema]))])
  .nullable();

/** A definition answer as locations (a link's selection range: the name, not the whole body). */
export function parseDefinition(raw: unknown): { uri: string; range: LspRange }[] {
  const parsed = DefinitionSchema.safeParse(raw);
  if (!parsed.success || parsed.data === null) return [];
  const list = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  return list.map((entry) =>
    "targetUri" in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry,
  );
}

const DiagnosticSchema = z.object({
  range: RangeSchema,
  severity: z.number().int().optional(),
  code: z.union([z.string(), z.number()]).optional(),
  source: z.string().optional(),
  message: z.string(),
  tags: z.array(z.number().int()).optional(),
});
export type LspDiagnostic = z.infer<typeof DiagnosticSchema>;

const PublishSchema = z.object({ uri: z.string(), diagnostics: z.array(DiagnosticSchema) });

/** A `textDocument/publishDiagnostics` notification, or null if unreadable. */
export function parsePublishedDiagnostics(raw: unknown): z.infer<typeof PublishSchema> | null {
  const parsed = PublishSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** LSP's CompletionItemKind numbers (1-25) by Monaco's CompletionItemKind names. */
export const COMPLETION_KINDS = [
  "Text",
  "Method",
  "Function",
  "Constructor",
  "Field",
  "Variable",
  "Class",
  "Interface",
  "Module",
  "Property",
  "Unit",
  "Value",
  "Enum",
  "Keyword",
  "Snippet",
  "Color",
  "File",
  "Reference",
  "Folder",
  "EnumMember",
  "Constant",
  "Struct",
  "Event",
  "Operator",
  "TypeParameter",
] as const;

/** Monaco's name of an LSP completion kind (Text when unknown). */
export function completionKindName(kind: number | undefined): (typeof COMPLETION_KINDS)[number] {
  return COMPLETION_KINDS[(kind ?? 1) - 1] ?? "Text";
}

/** Where pyright sees the workspace: beside, not above, its bundled typeshed at /typeshed. */
export const SERVER_ROOT = "/workspace";

/** A workspace path's place in pyright's file system. */
export function serverPath(path: string): string {
  return `${SERVER_ROOT}/${path}`;
}

/** The workspace path of a place in pyright's file system, or null (typeshed, its config). */
export function workspacePathOf(serverFsPath: string): string | null {
  return serverFsPath.startsWith(`${SERVER_ROOT}/`) ? serverFsPath.slice(SERVER_ROOT.length + 1) : null;
}
