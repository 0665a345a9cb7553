import { monaco } from "../../../../ui/monaco";
import { fileUri, pathOfUri } from "../../../textModels/workspaceModels";
import { completionsAllowed } from "../../settings";
import { pathOfServerUri, serverUri } from "./documents";
import type { JsonRpc } from "./jsonRpc";
import {
  type CompletionItem,
  completionKindName,
  type LspRange,
  parseCompletions,
  parseDefinition,
  parseHover,
  toMarkdown,
} from "./lsp";

type Model = monaco.editor.ITextModel;

/** Monaco's 1-based range of an LSP range. */
export function toMonacoRange(range: LspRange): monaco.IRange {
  return {
    startLineNumber: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLineNumber: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

function where(model: Model, position: monaco.Position) {
  const path = pathOfUri(model.uri);
  if (path === null) return null;
  return {
    textDocument: { uri: serverUri(path) },
    position: { line: position.lineNumber - 1, character: position.column - 1 },
  };
}

function cancelOn(token: monaco.CancellationToken) {
  return (cancel: () => void) => token.onCancellationRequested(cancel);
}

type Suggestion = monaco.languages.CompletionItem & { lspItem: CompletionItem };

function toSuggestion(item: CompletionItem, fallback: monaco.IRange): Suggestion {
  const edit = item.textEdit;
  const range = !edit
    ? fallback
    : "range" in edit
      ? toMonacoRange(edit.range)
      : { insert: toMonacoRange(edit.insert), replace: toMonacoRange(edit.replace) };
  return {
    label: item.label,
    kind: monaco.languages.CompletionItemKind[completionKindName(item.kind)],
    insertText: edit?.newText ?? item.insertText ?? item.label,
    // LSP's InsertTextFormat 2 is a snippet.
    ...(item.insertTextFormat === 2
      ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet }
      : {}),
    range,
    ...(item.detail !== undefined ? { detail: item.detail } : {}),
    ...(item.documentation !== undefined ? { documentation: { value: toMarkdown(item.documentation) } } : {}),
    ...(item.sortText !== undefined ? { sortText: item.sortText } : {}),
    ...(item.filterText !== undefined ? { filterText: item.filterText } : {}),
    ...(item.additionalTextEdits
      ? {
          additionalTextEdits: item.additionalTextEdits.map((e) => ({
            range: toMonacoRange(e.range),
            text: e.newText,
          })),
        }
      : {}),
    lspItem: item,
  };
}

/**
 * Completions, hover and go to definition from pyright for Python models. `ready` settles when
 * pyright has initialised: until then a completion request waits for it (Monaco shows
 * "Loading..." meanwhile), so the list is never empty because pyright was still starting.
 */
export function registerProviders(rpc: JsonRpc, ready: Promise<boolean>): monaco.IDisposable {
  const completion = monaco.languages.registerCompletionItemProvider("python", {
    triggerCharacters: [".", "[", '"', "'"],
    async provideCompletionItems(model, position, _context, token) {
      if (!completionsAllowed() || !(await ready) || token.isCancellationRequested)
        return { suggestions: [] };
      const params = where(model, position);
      if (!params) return { suggestions: [] };
      const raw = await rpc.request("textDocument/completion", params, cancelOn(token)).catch(() => null);
      const word = model.getWordUntilPosition(position);
      const fallback = new monaco.Range(
        position.lineNumber,
        word.startColumn,
        position.lineNumber,
        position.column,
      );
      const { items, isIncomplete } = parseCompletions(raw);
      return { suggestions: items.map((item) => toSuggestion(item, fallback)), incomplete: isIncomplete };
    },
    async resolveCompletionItem(suggestion, token) {
      const { lspItem } = suggestion as Suggestion;
      if (!lspItem || lspItem.documentation !== undefined) return suggestion;
      const raw = await rpc.request("completionItem/resolve", lspItem, cancelOn(token)).catch(() => null);
      const [resolved] = parseCompletions(raw === null ? null : [raw]).items;
      if (resolved?.documentation !== undefined)
        suggestion.documentation = { value: toMarkdown(resolved.documentation) };
      if (resolved?.detail !== undefined) suggestion.detail = resolved.detail;
      return suggestion;
    },
  });
  const hover = monaco.languages.registerHoverProvider("python", {
    async provideHover(model, position, token) {
      const params = where(model, position);
      if (!params || !(await ready)) return null;
      const answer = parseHover(
        await rpc.request("textDocument/hover", params, cancelOn(token)).catch(() => null),
      );
      if (!answer) return null;
      return {
        contents: answer.markdown.map((value) => ({ value })),
        ...(answer.range ? { range: toMonacoRange(answer.range) } : {}),
      };
    },
  });
  const definition = monaco.languages.registerDefinitionProvider("python", {
    async provideDefinition(model, position, token) {
      const params = where(model, position);
      if (!params || !(await ready)) return null;
      const raw = await rpc.request("textDocument/definition", params, cancelOn(token)).catch(() => null);
      // Only workspace files: typeshed's stubs have no model to show.
      return parseDefinition(raw).flatMap(({ uri, range }) => {
        const path = pathOfServerUri(uri);
        return path === null ? [] : [{ uri: fileUri(path), range: toMonacoRange(range) }];
      });
    },
  });
  return {
    dispose: () => {
      completion.dispose();
      hover.dispose();
      definition.dispose();
    },
  };
}
