import { useEffect } from "react";
import { monaco } from "../../ui/monaco";
import type { CollabSession } from "../collab/CollabSession";
import type { WorkspaceModels } from "../editor/monaco/workspaceModels";

/** What a language service gets when it starts: the editor and every workspace file's model. */
export interface ServiceContext {
  readonly session: CollabSession;
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  /** One model per workspace file at `fileUri(path)`, kept equal to the shared text. */
  readonly workspace: WorkspaceModels;
}

/**
 * A language service (completions, diagnostics, hover, definitions...) for some of Monaco's
 * languages. It starts once, when the first model of one of its languages exists, and loads
 * its code then (a dynamic import), so the editor route's JavaScript does not grow.
 */
export interface LanguageService {
  /** A name for logs and the status bar ("TypeScript", "Python", "C/C++"). */
  readonly name: string;
  /** Monaco language ids it serves. */
  readonly languages: readonly string[];
  start(context: ServiceContext): Promise<monaco.IDisposable>;
}

/** The services an editor starts. A new one is one entry here. */
export const LANGUAGE_SERVICES: LanguageService[] = [
  {
    // The session's shared clangd on the server (C files are Monaco's "cpp" too).
    name: "C/C++",
    languages: ["c", "cpp"],
    start: async (context) => (await import("./clangd/start")).startClangd(context),
  },
];

/**
 * Starts each service the first time a model of its language exists in this editor, and
 * stops them all when the editor goes.
 */
export function useLanguageServices(
  session: CollabSession,
  editor: monaco.editor.IStandaloneCodeEditor | null,
  workspace: WorkspaceModels | null,
): void {
  useEffect(() => {
    if (!editor || !workspace) return;
    const context: ServiceContext = { session, editor, workspace };
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
    for (const model of monaco.editor.getModels()) startFor(model.getLanguageId());
    const created = monaco.editor.onDidCreateModel((model) => startFor(model.getLanguageId()));
    const changed = monaco.editor.onDidChangeModelLanguage(({ model }) => startFor(model.getLanguageId()));
    return () => {
      isDisposed = true;
      created.dispose();
      changed.dispose();
      for (const running of started.values()) void running.then((disposable) => disposable?.dispose());
    };
  }, [session, editor, workspace]);
}
