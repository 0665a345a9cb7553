import type { monaco } from "../../../../ui/monaco";
import { pathOfUri } from "../../../textModels/workspaceModels";
import { showDiagnostics } from "./diagnostics";
import { initialFiles, pythonModels, serverUri, syncDocuments } from "./documents";
import { JsonRpc } from "./jsonRpc";
import { SERVER_ROOT } from "./lsp";
import { registerProviders } from "./providers";
import { bootPyright } from "./pyrightWorker";

/** How long pyright may take to answer `initialize` before it counts as failed. */
const START_TIMEOUT_MS = 60_000;

interface Pyright extends monaco.IDisposable {
  /** True once pyright answered `initialize`, false if it failed to. */
  readonly ready: Promise<boolean>;
}

/**
 * Diagnostics come from pyright's background worker, so the foreground one has read nothing
 * when the first completion is asked for (6 s measured). One completion at the top of a file
 * makes it read builtins and the file's imports now, before anyone waits on it.
 */
function warmUp(rpc: JsonRpc): void {
  const first = pythonModels()[0];
  const path = first ? pathOfUri(first.uri) : null;
  if (path === null) return;
  void rpc
    .request("textDocument/completion", {
      textDocument: { uri: serverUri(path) },
      position: { line: 0, character: 0 },
    })
    .catch(() => null);
}

/**
 * pyright in Web Workers for the workspace's Python files: documents kept in sync, providers
 * registered at once (they wait for `ready`), diagnostics as markers.
 */
export function startPyright(): Pyright {
  const workers = bootPyright();
  const rpc = new JsonRpc(workers.foreground);
  // The server asks for settings and registrations; defaults (null) and acceptance suit us.
  rpc.onRequest("workspace/configuration", (params) => {
    const items = (params as { items?: unknown[] } | null)?.items;
    return Array.isArray(items) ? items.map(() => null) : [];
  });
  const files = initialFiles();
  const initial = new Set(pythonModels().flatMap((model) => pathOfUri(model.uri) ?? []));
  const disposables: monaco.IDisposable[] = [];
  let isDisposed = false;
  const initialised = rpc.request("initialize", {
    processId: null,
    rootUri: `file://${SERVER_ROOT}`,
    workspaceFolders: [{ uri: `file://${SERVER_ROOT}`, name: "workspace" }],
    capabilities: {
      textDocument: {
        synchronization: { dynamicRegistration: false },
        completion: {
          completionItem: { snippetSupport: true, documentationFormat: ["markdown", "plaintext"] },
        },
        hover: { contentFormat: ["markdown", "plaintext"] },
        definition: { linkSupport: true },
        publishDiagnostics: { tagSupport: { valueSet: [1, 2] }, versionSupport: true },
      },
      workspace: { configuration: true, workspaceFolders: true },
    },
    initializationOptions: { files },
  });
  // A worker that cannot load (a blocked script, out of memory) never answers: fail fast then.
  const failed = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error("pyright did not start in time")), START_TIMEOUT_MS);
    workers.foreground.addEventListener("error", (event) => reject(new Error(event.message)));
  });
  const ready = Promise.race([initialised, failed]).then(
    () => {
      if (isDisposed) return false;
      rpc.notify("initialized", {});
      rpc.notify("workspace/didChangeConfiguration", { settings: {} });
      disposables.push(showDiagnostics(rpc));
      disposables.push(syncDocuments(rpc, (path) => initial.has(path)));
      warmUp(rpc);
      return true;
    },
    (error: unknown) => {
      console.warn("pyright did not start", error);
      return false;
    },
  );
  disposables.push(registerProviders(rpc, ready));
  return {
    ready,
    dispose: () => {
      isDisposed = true;
      for (const disposable of disposables) disposable.dispose();
      rpc.close();
      workers.stop();
    },
  };
}
