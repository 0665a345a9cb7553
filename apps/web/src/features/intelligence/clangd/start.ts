import { type Ack, languageServerOf, textDigest } from "@ensemble/protocol";
import { monaco } from "../../../ui/monaco";
import type { CollabSession } from "../../collab/CollabSession";
import { fileUri, pathOfUri } from "../../textModels/workspaceModels";
import { registerFormatter } from "../formatters";
import { completionsAllowed, diagnosticsShown, useIntelligenceSettings } from "../settings";
import { useServiceStatus } from "../status";
import { type ClangdChannel, clangdChannel } from "./channel";
import { fromPosition, toCompletion, toRange, toSeverity } from "./convert";
import { applyEdits } from "./edits";

/** The service's name in the status store. */
export const CLANGD_SERVICE = "C/C++";
/** The markers' owner, beside a run's own. */
export const CLANGD_MARKER_OWNER = "clangd";
const LANGUAGES = ["c", "cpp"];
/** Refusals after which the server is opened again (it stopped when idle, or the node was busy). */
const RESTARTABLE = new Set(["language_server_busy", "service_unavailable"]);

/** Where a request is made: the file's path and the digest of its text as we see it. */
type DocumentAt = { sessionId: string; path: string; digest: string };

function documentAt(model: monaco.editor.ITextModel, sessionId: string): DocumentAt | undefined {
  const path = pathOfUri(model.uri);
  if (path === null || languageServerOf(path) !== "clangd") return undefined;
  return { sessionId, path, digest: textDigest(model.getValue(monaco.editor.EndOfLinePreference.LF)) };
}

/**
 * C and C++ from the session's shared clangd: completion, hover, go to definition and
 * signature help through the server, and its diagnostics as markers on every C/C++ model.
 * While the server starts, the providers answer nothing, so Monaco's word completion still
 * shows (never an empty list); an answer made on a text that changed meanwhile is dropped.
 */
export async function startClangd({
  session,
  editor,
}: {
  session: CollabSession;
  editor: monaco.editor.IStandaloneCodeEditor;
}): Promise<monaco.IDisposable> {
  const channel = session.channel(clangdChannel);
  const sessionId = session.sessionId;
  const disposables: monaco.IDisposable[] = [];
  const isReady = () => channel.state === "ready";

  /**
   * Asks about `model` at `position` on its text as it is now. An answer the server dropped as
   * stale (someone typed meanwhile, often the asker) is asked again on the newer text, a few
   * times while Monaco still wants it; a refusal is nothing (the caller shows nothing).
   */
  const askFresh = async <T>(
    model: monaco.editor.ITextModel,
    token: monaco.CancellationToken,
    send: (at: DocumentAt) => Promise<Ack<{ stale: true } | { stale: false; result: T }>>,
  ): Promise<T | undefined> => {
    for (let attempt = 0; attempt < 3 && !token.isCancellationRequested && isReady(); attempt += 1) {
      const at = documentAt(model, sessionId);
      if (!at || model.isDisposed()) return undefined;
      const result = await send(at);
      if (!result.ok) {
        if (RESTARTABLE.has(result.error.code)) channel.reopen();
        return undefined;
      }
      if (!result.data.stale) return result.data.result;
    }
    return undefined;
  };

  for (const language of LANGUAGES) {
    disposables.push(
      monaco.languages.registerCompletionItemProvider(language, {
        triggerCharacters: [".", ">", ":"],
        async provideCompletionItems(model, position, _context, token) {
          const at = documentAt(model, sessionId);
          if (!at || !isReady() || !completionsAllowed()) return undefined;
          const version = model.getVersionId();
          const answer = await channel.request("lspCompletion", { ...at, position: fromPosition(position) });
          if (!answer.ok) {
            if (RESTARTABLE.has(answer.error.code)) channel.reopen();
            return undefined;
          }
          if (answer.data.stale || model.getVersionId() !== version) {
            // Typing went on while the server worked (a slow server, a busy machine). Monaco
            // would keep filtering this answer's items by the word it was made for, even into
            // the next word: ask again where the caret is now instead, unless the list was closed.
            if (!token.isCancellationRequested && editor.getModel() === model && editor.hasTextFocus()) {
              setTimeout(() => editor.trigger("clangd", "editor.action.triggerSuggest", { auto: true }), 0);
            }
            return undefined;
          }
          const list = answer.data.result;
          if (list.items.length === 0 || !completionsAllowed()) return undefined;
          const word = model.getWordUntilPosition(position);
          const fallback = new monaco.Range(
            position.lineNumber,
            word.startColumn,
            position.lineNumber,
            word.endColumn,
          );
          return {
            suggestions: list.items.map((item) => toCompletion(item, fallback)),
            incomplete: list.isIncomplete,
          };
        },
      }),
      monaco.languages.registerHoverProvider(language, {
        async provideHover(model, position, token) {
          const hover = await askFresh(model, token, (at) =>
            channel.request("lspHover", { ...at, position: fromPosition(position) }),
          );
          if (!hover) return undefined;
          return {
            contents: [{ value: hover.markdown }],
            ...(hover.range ? { range: toRange(hover.range) } : {}),
          };
        },
      }),
      monaco.languages.registerDefinitionProvider(language, {
        async provideDefinition(model, position, token) {
          const places = await askFresh(model, token, (at) =>
            channel.request("lspDefinition", { ...at, position: fromPosition(position) }),
          );
          return places?.map(({ path, range }) => ({ uri: fileUri(path), range: toRange(range) }));
        },
      }),
      monaco.languages.registerRenameProvider(language, {
        // An edit: the server refuses a viewer's (whose editor is read-only anyway).
        async provideRenameEdits(model, position, newName, token) {
          const files = await askFresh(model, token, (at) =>
            channel.request("lspRename", { ...at, position: fromPosition(position), newName }),
          );
          if (!files) return { edits: [], rejectReason: "The language server could not rename this." };
          return {
            edits: files.flatMap(({ path, edits }) =>
              edits.map((edit) => ({
                resource: fileUri(path),
                textEdit: { range: toRange(edit.range), text: edit.newText },
                versionId: undefined,
              })),
            ),
          };
        },
      }),
      monaco.languages.registerSignatureHelpProvider(language, {
        signatureHelpTriggerCharacters: ["(", ","],
        signatureHelpRetriggerCharacters: [","],
        async provideSignatureHelp(model, position, token) {
          const help = await askFresh(model, token, (at) =>
            channel.request("lspSignatureHelp", { ...at, position: fromPosition(position) }),
          );
          if (!help) return undefined;
          const { signatures, activeSignature, activeParameter } = help;
          return {
            value: {
              signatures: signatures.map((s) => ({
                label: s.label,
                ...(s.documentation ? { documentation: { value: s.documentation } } : {}),
                parameters: s.parameters.map((p) => ({
                  label: p.label,
                  ...(p.documentation ? { documentation: { value: p.documentation } } : {}),
                })),
              })),
              activeSignature,
              activeParameter,
            },
            dispose() {},
          };
        },
      }),
    );
  }

  disposables.push(showDiagnostics(channel));
  // Format Document for C and C++: clangd's clang-format, as the whole formatted text.
  registerFormatter(LANGUAGES, async (text, path) => {
    if (!isReady()) throw new Error("The C/C++ language server is not ready yet.");
    const answer = await channel.request("lspFormat", {
      sessionId,
      path,
      digest: textDigest(text),
      tabSize: 2,
      insertSpaces: true,
    });
    if (!answer.ok) throw new Error(answer.error.message);
    if (answer.data.stale) throw new Error("The file changed while it was formatted: try again.");
    const edits = answer.data.result.find((file) => file.path === path)?.edits ?? [];
    const formatted = applyEdits(text, edits);
    if (formatted === undefined) throw new Error("The language server's formatting did not apply.");
    return formatted;
  });
  const showStatus = () => {
    const state = channel.state;
    useServiceStatus
      .getState()
      .set(
        CLANGD_SERVICE,
        state === "ready" ? "ready" : state === "loading" || state === "idle" ? "loading" : "failed",
      );
  };
  const stopStatus = channel.subscribe(showStatus);
  showStatus();
  channel.start();
  return {
    dispose() {
      stopStatus();
      for (const disposable of disposables) disposable.dispose();
    },
  };
}

/**
 * The server's diagnostics as markers on each C/C++ model, kept current as reports arrive,
 * models are made, and this person switches diagnostics off (cleared) and on.
 */
function showDiagnostics(channel: ClangdChannel): monaco.IDisposable {
  const render = (model: monaco.editor.ITextModel) => {
    const path = pathOfUri(model.uri);
    if (path === null || languageServerOf(path) !== "clangd") return;
    const diagnostics = diagnosticsShown() ? (channel.files.get(path) ?? []) : [];
    monaco.editor.setModelMarkers(
      model,
      CLANGD_MARKER_OWNER,
      diagnostics.map((d) => ({
        ...toRange(d.range),
        severity: toSeverity(d.severity),
        message: d.message,
        source: "clangd",
        ...(d.code ? { code: d.code } : {}),
      })),
    );
  };
  const renderAll = () => {
    for (const model of monaco.editor.getModels()) render(model);
  };
  const stopChannel = channel.subscribe(renderAll);
  const stopSettings = useIntelligenceSettings.subscribe((now, before) => {
    if (now.diagnostics !== before.diagnostics) renderAll();
  });
  const created = monaco.editor.onDidCreateModel(render);
  renderAll();
  return {
    dispose() {
      stopChannel();
      stopSettings();
      created.dispose();
      for (const model of monaco.editor.getModels())
        monaco.editor.setModelMarkers(model, CLANGD_MARKER_OWNER, []);
    },
  };
}
