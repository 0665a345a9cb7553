// Monaco ships no types for the adapters of its TypeScript contribution (they are what its own
// `tsMode` registers); these are the parts we use, as monaco-editor 0.57 defines them.
declare module "monaco-editor/languages/features/typescript/languageFeatures" {
  import type { editor, languages } from "monaco-editor/editor/editor.api";
  import type {
    Diagnostic,
    DiagnosticRelatedInformation,
    TypeScriptWorker,
  } from "monaco-editor/languages/features/typescript/register";

  /** Gets the worker, with the given models (and whatever else its owner syncs) in its program. */
  export type WorkerAccessor = (
    ...uris: import("monaco-editor/editor/editor.api").Uri[]
  ) => Promise<TypeScriptWorker>;

  export class LibFiles {
    constructor(worker: WorkerAccessor);
  }
  export class SuggestAdapter implements languages.CompletionItemProvider {
    constructor(worker: WorkerAccessor);
    readonly triggerCharacters: string[];
    provideCompletionItems: languages.CompletionItemProvider["provideCompletionItems"];
    resolveCompletionItem: NonNullable<languages.CompletionItemProvider["resolveCompletionItem"]>;
  }
  export class SignatureHelpAdapter implements languages.SignatureHelpProvider {
    constructor(worker: WorkerAccessor);
    readonly signatureHelpTriggerCharacters: string[];
    provideSignatureHelp: languages.SignatureHelpProvider["provideSignatureHelp"];
  }
  export class QuickInfoAdapter implements languages.HoverProvider {
    constructor(worker: WorkerAccessor);
    provideHover: languages.HoverProvider["provideHover"];
  }
  export class DocumentHighlightAdapter implements languages.DocumentHighlightProvider {
    constructor(worker: WorkerAccessor);
    provideDocumentHighlights: languages.DocumentHighlightProvider["provideDocumentHighlights"];
  }
  export class DefinitionAdapter implements languages.DefinitionProvider {
    constructor(libFiles: LibFiles, worker: WorkerAccessor);
    provideDefinition: languages.DefinitionProvider["provideDefinition"];
  }
  export class ReferenceAdapter implements languages.ReferenceProvider {
    constructor(libFiles: LibFiles, worker: WorkerAccessor);
    provideReferences: languages.ReferenceProvider["provideReferences"];
  }
  export class RenameAdapter implements languages.RenameProvider {
    constructor(libFiles: LibFiles, worker: WorkerAccessor);
    provideRenameEdits(
      model: editor.ITextModel,
      position: import("monaco-editor/editor/editor.api").Position,
      newName: string,
      token: import("monaco-editor/editor/editor.api").CancellationToken,
    ): Promise<(languages.WorkspaceEdit & languages.Rejection) | undefined>;
  }
  /** A diagnostic's message with its chain of causes, one per line. */
  export function flattenDiagnosticMessageText(
    message: Diagnostic["messageText"] | DiagnosticRelatedInformation["messageText"] | undefined,
    newLine: string,
  ): string;
}

// The worker's class itself, which unit tests run in Node over fake mirror models.
declare module "monaco-editor/languages/features/typescript/tsWorker" {
  import type {
    IExtraLibs,
    TypeScriptWorker as Worker,
  } from "monaco-editor/languages/features/typescript/register";

  interface MirrorModel {
    readonly uri: { toString(): string; readonly path: string };
    readonly version: number;
    getValue(): string;
  }
  export class TypeScriptWorker implements Worker {
    constructor(
      ctx: { getMirrorModels(): MirrorModel[] },
      createData: {
        compilerOptions: import("monaco-editor/languages/features/typescript/register").CompilerOptions;
        extraLibs: IExtraLibs;
      },
    );
  }
  export interface TypeScriptWorker extends Worker {}
}
