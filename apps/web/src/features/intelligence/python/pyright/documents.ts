import { monaco } from "../../../../ui/monaco";
import { pathOfUri } from "../../../textModels/workspaceModels";
import type { JsonRpc } from "./jsonRpc";
import { SERVER_ROOT, serverPath, workspacePathOf } from "./lsp";

type Model = monaco.editor.ITextModel;

/** pyright's URI of a workspace path. */
export function serverUri(path: string): string {
  return monaco.Uri.from({ scheme: "file", path: serverPath(path) }).toString();
}

/** The workspace path pyright means by `uri`, or null (a typeshed stub, outside the workspace). */
export function pathOfServerUri(uri: string): string | null {
  const parsed = monaco.Uri.parse(uri);
  return parsed.scheme === "file" ? workspacePathOf(parsed.path) : null;
}

/** The workspace's Python models: every `.py`/`.pyi` file, open in a tab or not. */
export function pythonModels(): Model[] {
  return monaco.editor.getModels().filter(isWorkspacePython);
}

function isWorkspacePython(model: Model): boolean {
  return model.getLanguageId() === "python" && pathOfUri(model.uri) !== null;
}

/** pyright's configuration, a file at its workspace root. */
export function initialFiles(): Record<string, string> {
  const files: Record<string, string> = {
    [`${SERVER_ROOT}/pyrightconfig.json`]: JSON.stringify({
      typeshedPath: "/typeshed",
      // basedpyright's default ("all") flags every unannotated value; standard is pyright's.
      typeCheckingMode: "standard",
      pythonVersion: "3.11",
      reportMissingModuleSource: "none",
    }),
  };
  for (const model of pythonModels()) {
    const path = pathOfUri(model.uri);
    if (path !== null) files[serverPath(path)] = model.getValue();
  }
  return files;
}

/**
 * Keeps pyright's open documents equal to the workspace's Python models: each model is open
 * there (so its text, not the file system's, is analysed), a new file is created in its file
 * system first (so imports of it resolve), and a file gone is closed and deleted.
 */
export function syncDocuments(rpc: JsonRpc, isInitial: (path: string) => boolean): monaco.IDisposable {
  const synced = new Map<Model, monaco.IDisposable>();
  const open = (model: Model) => {
    const path = pathOfUri(model.uri);
    if (path === null || !isWorkspacePython(model) || synced.has(model)) return;
    const uri = serverUri(path);
    if (!isInitial(path)) rpc.notify("pyright/createFile", { uri });
    rpc.notify("textDocument/didOpen", {
      textDocument: { uri, languageId: "python", version: model.getVersionId(), text: model.getValue() },
    });
    // Whole text each time: pyright parses the whole file anyway, and a Python file is small.
    const changed = model.onDidChangeContent(() => {
      rpc.notify("textDocument/didChange", {
        textDocument: { uri, version: model.getVersionId() },
        contentChanges: [{ text: model.getValue() }],
      });
    });
    const gone = model.onWillDispose(() => {
      close(model);
      rpc.notify("pyright/deleteFile", { uri });
    });
    synced.set(model, {
      dispose: () => {
        changed.dispose();
        gone.dispose();
      },
    });
  };
  const close = (model: Model) => {
    const path = pathOfUri(model.uri);
    synced.get(model)?.dispose();
    synced.delete(model);
    if (path !== null) rpc.notify("textDocument/didClose", { textDocument: { uri: serverUri(path) } });
  };
  for (const model of pythonModels()) open(model);
  const created = monaco.editor.onDidCreateModel(open);
  const relabelled = monaco.editor.onDidChangeModelLanguage(({ model }) => {
    if (isWorkspacePython(model)) open(model);
    else if (synced.has(model)) close(model);
  });
  return {
    dispose: () => {
      created.dispose();
      relabelled.dispose();
      for (const listener of synced.values()) listener.dispose();
      synced.clear();
    },
  };
}
