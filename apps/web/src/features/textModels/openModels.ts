import { toast } from "react-toastify/unstyled";
import * as Y from "yjs";
import { monaco } from "../../ui/monaco";
import type { CollabSession } from "../collab/CollabSession";
import { editorLanguage } from "../workspace/tree";
import { TextBinding } from "./binding";
import type { WorkspaceModels } from "./workspaceModels";

/** Says why the editor refused a change; one toast however many keystrokes it refuses. */
function refuseEdit(message: string): void {
  toast.error(`${message} This change was not made.`, { toastId: "edit-refused" });
}

/** Groups keystrokes typed within this window into one undo step. */
const UNDO_CAPTURE_MS = 500;

/** One open file: its model bound to its Y.Text, its own undo history and view state. */
export interface OpenModel {
  id: string;
  ytext: Y.Text;
  model: monaco.editor.ITextModel;
  binding: TextBinding;
  /** Undoes only this user's edits of this file (the binding is the tracked origin). */
  undo: Y.UndoManager;
  viewState: monaco.editor.ICodeEditorViewState | null;
}

/**
 * The open tabs: each takes its file's model from the workspace's models and binds it to
 * its file's Y.Text and the editor for as long as the tab is open. Switching tabs keeps each
 * file's undo history and scroll.
 */
export class OpenModels {
  private readonly models = new Map<string, OpenModel>();

  constructor(
    private readonly session: CollabSession,
    private readonly editor: monaco.editor.IStandaloneCodeEditor,
    private readonly workspace: WorkspaceModels,
  ) {}

  get(id: string): OpenModel | undefined {
    return this.models.get(id);
  }

  /** The undo history of the open file shown by `model`, if a tab has it. */
  undoOf(model: monaco.editor.ITextModel): Y.UndoManager | undefined {
    for (const open of this.models.values()) if (open.model === model) return open.undo;
    return undefined;
  }

  /** Makes the open set exactly `ids` (with their paths), binding new ones and dropping closed ones. */
  sync(files: ReadonlyMap<string, string>): void {
    for (const [id, open] of this.models) {
      if (!files.has(id)) this.drop(id, open);
    }
    for (const [id, path] of files) {
      const open = this.models.get(id);
      if (!open) this.models.set(id, this.create(id, path));
      else if (open.model !== this.workspace.take(id, path)) this.rebind(open, path);
      else if (open.model.getLanguageId() !== editorLanguage(path))
        monaco.editor.setModelLanguage(open.model, editorLanguage(path));
    }
  }

  dispose(): void {
    for (const [id, open] of this.models) this.drop(id, open);
  }

  private create(id: string, path: string): OpenModel {
    const ytext = this.session.fileText(id);
    const model = this.workspace.take(id, path);
    const binding = new TextBinding(ytext, model, this.editor, this.session.awareness, refuseEdit);
    const undo = new Y.UndoManager(ytext, {
      trackedOrigins: new Set([binding]),
      captureTimeout: UNDO_CAPTURE_MS,
    });
    return { id, ytext, model, binding, undo, viewState: null };
  }

  /** The file was renamed: its model is a new one at the new address; undo and view stay. */
  private rebind(open: OpenModel, path: string): void {
    const isShown = this.editor.getModel() === open.model;
    const viewState = isShown ? this.editor.saveViewState() : open.viewState;
    open.binding.destroy();
    open.undo.trackedOrigins.delete(open.binding);
    open.model = this.workspace.take(open.id, path);
    open.binding = new TextBinding(open.ytext, open.model, this.editor, this.session.awareness, refuseEdit);
    open.undo.trackedOrigins.add(open.binding);
    open.viewState = viewState;
    if (isShown) {
      this.editor.setModel(open.model);
      if (viewState) this.editor.restoreViewState(viewState);
    }
  }

  private drop(id: string, open: OpenModel): void {
    this.models.delete(id);
    if (this.editor.getModel() === open.model) this.editor.setModel(null);
    open.undo.destroy();
    open.binding.destroy();
    this.workspace.release(id);
  }
}
