import type { CompletionEntry, TextEdit as EditOut, TextRange } from "@ensemble/protocol";
import type {
  CompletionItem,
  CompletionList,
  Definition,
  DefinitionLink,
  Hover,
  MarkedString,
  MarkupContent,
  SignatureHelp,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol/node";
import { pathOfUri } from "./documents";

// A server's answers turned into our wire shapes: only what the browser uses, bounded, and
// places outside the workspace (system headers) left out. The server is a sandboxed program:
// its answers are parsed like any outside data before they reach anyone.

const MAX_ITEMS = 200;
const MAX_TEXT = 20_000;

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

function markdownOf(content: MarkupContent | MarkedString | MarkedString[] | string | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(markdownOf).join("\n\n");
  if ("kind" in content) return content.kind === "markdown" ? content.value : escapeMarkdown(content.value);
  return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+\-.!<>|])/g, "\\$1");
}

function rangeOf(range: TextRange | undefined): TextRange | undefined {
  return range ? { start: range.start, end: range.end } : undefined;
}

export function completionOf(answer: CompletionItem[] | CompletionList | null): {
  isIncomplete: boolean;
  items: CompletionEntry[];
} {
  const list = Array.isArray(answer) ? { isIncomplete: false, items: answer } : answer;
  if (!list) return { isIncomplete: false, items: [] };
  const items = list.items.slice(0, MAX_ITEMS).map((item): CompletionEntry => {
    const edit = item.textEdit;
    const range = edit ? ("range" in edit ? edit.range : edit.replace) : undefined;
    const documentation = item.documentation === undefined ? undefined : markdownOf(item.documentation);
    return {
      label: item.label.trim(),
      ...(item.kind ? { kind: item.kind } : {}),
      ...(item.detail ? { detail: clip(item.detail) } : {}),
      ...(documentation ? { documentation: clip(documentation) } : {}),
      insertText: edit?.newText ?? item.insertText ?? item.label,
      isSnippet: item.insertTextFormat === 2,
      ...(range ? { range: { start: range.start, end: range.end } } : {}),
      ...(item.filterText ? { filterText: item.filterText } : {}),
      ...(item.sortText ? { sortText: item.sortText } : {}),
    };
  });
  return { isIncomplete: list.isIncomplete || list.items.length > MAX_ITEMS, items };
}

export function hoverOf(answer: Hover | null): { markdown: string; range?: TextRange } | null {
  if (!answer) return null;
  const markdown = clip(markdownOf(answer.contents));
  if (!markdown.trim()) return null;
  const range = rangeOf(answer.range);
  return range ? { markdown, range } : { markdown };
}

export function locationsOf(
  answer: Definition | DefinitionLink[] | null,
): { path: string; range: TextRange }[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  const places: { path: string; range: TextRange }[] = [];
  for (const place of list.slice(0, 50)) {
    const [uri, range] =
      "targetUri" in place ? [place.targetUri, place.targetSelectionRange] : [place.uri, place.range];
    const path = pathOfUri(uri);
    if (path !== undefined) places.push({ path, range: { start: range.start, end: range.end } });
  }
  return places;
}

export function signaturesOf(answer: SignatureHelp | null) {
  if (!answer || answer.signatures.length === 0) return null;
  return {
    signatures: answer.signatures.slice(0, 20).map((signature) => {
      const documentation = signature.documentation && markdownOf(signature.documentation);
      return {
        label: clip(signature.label),
        ...(documentation ? { documentation: clip(documentation) } : {}),
        parameters: (signature.parameters ?? []).slice(0, 64).map((parameter) => {
          const doc = parameter.documentation && markdownOf(parameter.documentation);
          return { label: parameter.label, ...(doc ? { documentation: clip(doc) } : {}) };
        }),
      };
    }),
    activeSignature: answer.activeSignature ?? 0,
    activeParameter: answer.activeParameter ?? 0,
  };
}

function editsOf(edits: TextEdit[]): EditOut[] {
  return edits.map((e) => ({ range: { start: e.range.start, end: e.range.end }, newText: e.newText }));
}

/** A rename's edits per workspace file (edits to files outside it are dropped). */
export function workspaceEditsOf(answer: WorkspaceEdit | null): { path: string; edits: EditOut[] }[] {
  const files: { path: string; edits: EditOut[] }[] = [];
  for (const [uri, edits] of Object.entries(answer?.changes ?? {})) {
    const path = pathOfUri(uri);
    if (path !== undefined) files.push({ path, edits: editsOf(edits) });
  }
  return files;
}

/** A formatting's edits of one file. */
export function formattingOf(path: string, answer: TextEdit[] | null): { path: string; edits: EditOut[] }[] {
  return answer && answer.length > 0 ? [{ path, edits: editsOf(answer) }] : [];
}
