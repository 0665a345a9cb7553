import type { monaco } from "../../ui/monaco";
import type { CollabSession } from "../collab/CollabSession";
import type { OpenModels } from "../textModels/openModels";
import type { WorkspaceModels } from "../textModels/workspaceModels";

// Apart from services.ts, so a service declares itself without importing the list it joins.

/** What a language service gets when it starts: the editor and every workspace file's model. */
export interface ServiceContext {
  readonly session: CollabSession;
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  /** One model per workspace file at `fileUri(path)`, kept equal to the shared text. */
  readonly workspace: WorkspaceModels;
  /** The open tabs, with each one's undo history (an edit across files as one undo step). */
  readonly open: OpenModels;
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
