import type { CompletionEntry, TextRange } from "@ensemble/protocol";
import { monaco } from "../../../ui/monaco";

// The server's answers (LSP's zero-based lines and UTF-16 columns) as Monaco's shapes
// (one-based lines and columns, its own kind numbers).

/** LSP's CompletionItemKind (1-25) by number, named as Monaco names its own. */
const LSP_KINDS = [
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

export function toRange(range: TextRange): monaco.IRange {
  return {
    startLineNumber: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLineNumber: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** A Monaco position as the server's zero-based one. */
export function fromPosition(position: monaco.Position): { line: number; character: number } {
  return { line: position.lineNumber - 1, character: position.column - 1 };
}

export function toCompletion(
  entry: CompletionEntry,
  fallback: monaco.IRange,
): monaco.languages.CompletionItem {
  const kindName = entry.kind ? LSP_KINDS[entry.kind - 1] : undefined;
  return {
    label: entry.label,
    kind: kindName ? monaco.languages.CompletionItemKind[kindName] : monaco.languages.CompletionItemKind.Text,
    ...(entry.detail ? { detail: entry.detail } : {}),
    ...(entry.documentation ? { documentation: { value: entry.documentation } } : {}),
    insertText: entry.insertText,
    ...(entry.isSnippet
      ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet }
      : {}),
    range: entry.range ? toRange(entry.range) : fallback,
    ...(entry.filterText ? { filterText: entry.filterText } : {}),
    ...(entry.sortText ? { sortText: entry.sortText } : {}),
  };
}

export function toSeverity(severity: "error" | "warning" | "info" | "hint"): monaco.MarkerSeverity {
  switch (severity) {
    case "error":
      return monaco.MarkerSeverity.Error;
    case "warning":
      return monaco.MarkerSeverity.Warning;
    case "info":
      return monaco.MarkerSeverity.Info;
    default:
      return monaco.MarkerSeverity.Hint;
  }
}
