import type { Language } from "@ensemble/protocol";
import {
  DefinitionAdapter,
  DocumentHighlightAdapter,
  LibFiles,
  QuickInfoAdapter,
  ReferenceAdapter,
  RenameAdapter,
  SignatureHelpAdapter,
  SuggestAdapter,
} from "monaco-editor/languages/features/typescript/languageFeatures";
import { typescriptDefaults } from "monaco-editor/languages/features/typescript/register";
import { monaco } from "../../../ui/monaco";
import { useCollabStore } from "../../collab/store";
import { pathOfUri } from "../../textModels/workspaceModels";
import { type ServiceState, useServiceStatus } from "../status";
import type { ServiceContext } from "../types";
import { compilerOptions, runsOnNode } from "./compilerOptions";
import { Diagnostics } from "./diagnostics";
import { renameProvider } from "./rename";
import { type ProgramConfig, WorkerClient } from "./worker";

/** The service's name in the status store. */
export const SERVICE_NAME = "TypeScript";
export const SCRIPT_LANGUAGES = ["javascript", "typescript"] as const;

/** The running service: its completion source (index.ts registers it from the start) and its end. */
export interface RunningTypeScript extends monaco.IDisposable {
  readonly suggest: SuggestAdapter;
}

/**
 * Starts JavaScript and TypeScript intelligence over the workspace's models: one worker, every
 * workspace script in its program, Node's types when the session runs on Node. Hover, signature
 * help, highlights, definition and references (peek), rename as one shared edit, diagnostics as
 * markers, and Go to Definition opening the other file's tab.
 */
export function startTypeScript(context: ServiceContext): RunningTypeScript {
  const isScript = (model: monaco.editor.ITextModel) => {
    const path = pathOfUri(model.uri);
    const language = model.getLanguageId();
    return (
      path !== null &&
      (language === "javascript" || language === "typescript") &&
      context.session.fileIdAt(path) !== undefined
    );
  };
  let language = useCollabStore.getState().language;
  const setStatus = (state: ServiceState) => useServiceStatus.getState().set(SERVICE_NAME, state);
  const client = new WorkerClient(configFor(language), isScript, () => setStatus("failed"));
  const worker = client.get;
  const libFiles = new LibFiles(worker);
  const diagnostics = new Diagnostics(worker, isScript, () => setStatus("ready"));

  // Only the workspace's files: a model elsewhere (a pull request's diff) is not in the program.
  const selector = SCRIPT_LANGUAGES.map((id) => ({ language: id, scheme: "file" }));
  const { languages } = monaco;
  const disposables: monaco.IDisposable[] = [
    languages.registerHoverProvider(selector, new QuickInfoAdapter(worker)),
    languages.registerSignatureHelpProvider(selector, new SignatureHelpAdapter(worker)),
    languages.registerDocumentHighlightProvider(selector, new DocumentHighlightAdapter(worker)),
    languages.registerDefinitionProvider(selector, new DefinitionAdapter(libFiles, worker)),
    languages.registerReferenceProvider(selector, new ReferenceAdapter(libFiles, worker)),
    languages.registerRenameProvider(selector, renameProvider(new RenameAdapter(libFiles, worker), context)),
    diagnostics,
  ];

  // The host switched the session's language: Node's types come or go with it.
  const unsubscribe = useCollabStore.subscribe((state) => {
    if (state.language === language) return;
    const wasNode = runsOnNode(language);
    language = state.language;
    if (runsOnNode(language) === wasNode) return;
    setStatus("loading");
    void client.configure(configFor(language)).then(() => diagnostics.recheck());
  });

  return {
    suggest: new SuggestAdapter(worker),
    dispose() {
      unsubscribe();
      for (const disposable of disposables) disposable.dispose();
      client.dispose();
      typescriptDefaults.setExtraLibs([]);
    },
  };
}

/** The program's settings for a session in `language`; Node's types load from their own chunk. */
async function configFor(language: Language): Promise<ProgramConfig> {
  const isNode = runsOnNode(language);
  const libs = isNode ? (await import("./nodeTypes")).NODE_TYPES : {};
  // Monaco's adapters open a declaration file (Peek into `fs.d.ts`) from the libraries it knows.
  typescriptDefaults.setExtraLibs(Object.entries(libs).map(([filePath, content]) => ({ filePath, content })));
  return { options: compilerOptions(isNode), libs };
}
