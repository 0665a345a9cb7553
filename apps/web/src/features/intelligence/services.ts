import { useEffect } from "react";
import type { monaco } from "../../ui/monaco";
import type { CollabSession } from "../collab/CollabSession";
import type { OpenModels } from "../textModels/openModels";
import type { WorkspaceModels } from "../textModels/workspaceModels";
import { ensureEditorOpener } from "./opener";
import { pythonService } from "./python";
import { useServiceStatus } from "./status";
import type { LanguageService, ServiceContext } from "./types";
import { typescriptService } from "./typescript";

export type { LanguageService, ServiceContext } from "./types";

/** The session's shared clangd on the server (C files are Monaco's "cpp" too). */
const clangdService: LanguageService = {
  name: "C/C++",
  languages: ["c", "cpp"],
  start: async (context) => (await import("./clangd/start")).startClangd(context),
};

/** The services an editor starts. A new one is one entry here. */
export const LANGUAGE_SERVICES: LanguageService[] = [typescriptService, pythonService, clangdService];

/**
 * Starts each service the first time this editor shows a file of its language (each then
 * serves every workspace file of it), and stops them all when the editor goes.
 */
export function useLanguageServices(
  session: CollabSession,
  editor: monaco.editor.IStandaloneCodeEditor | null,
  workspace: WorkspaceModels | null,
  open: OpenModels | null,
): void {
  useEffect(() => {
    if (!editor || !workspace || !open) return;
    const context: ServiceContext = { session, editor, workspace, open };
    // Go to definition into another file opens its tab, whichever service answered.
    ensureEditorOpener();
    const started = new Map<LanguageService, Promise<monaco.IDisposable | null>>();
    let isDisposed = false;
    const startFor = (languageId: string) => {
      for (const service of LANGUAGE_SERVICES) {
        if (started.has(service) || !service.languages.includes(languageId)) continue;
        const running = service.start(context).catch((error: unknown) => {
          console.warn(`${service.name} language service did not start`, error);
          return null;
        });
        started.set(service, running);
        // The editor went while the service loaded: stop it as soon as it is up.
        void running.then((disposable) => {
          if (isDisposed) disposable?.dispose();
        });
      }
    };
    // The file shown decides, not the files that exist: every workspace file is a model, and a
    // person reading TypeScript should not wait while pyright and Ruff load beside it.
    const startForShown = () => {
      const shown = editor.getModel();
      if (shown) startFor(shown.getLanguageId());
    };
    startForShown();
    const opened = editor.onDidChangeModel(startForShown);
    const relabelled = editor.onDidChangeModelLanguage(startForShown);
    return () => {
      isDisposed = true;
      opened.dispose();
      relabelled.dispose();
      for (const [service, running] of started) {
        void running.then((disposable) => {
          disposable?.dispose();
          // Left the session: its services no longer show in the status bar.
          useServiceStatus.getState().remove(service.name);
        });
      }
    };
  }, [session, editor, workspace, open]);
}
