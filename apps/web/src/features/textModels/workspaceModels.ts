import type * as Y from "yjs";
import { monaco } from "../../ui/monaco";
import type { CollabSession } from "../collab/CollabSession";
import { editorLanguage } from "../workspace/tree";
import { applyDelta, writeChanges } from "./binding";

type Model = monaco.editor.ITextModel;

/** The address of a workspace file's model: `file:///src/main.ts`, as language services resolve imports. */
export function fileUri(path: string): monaco.Uri {
  return monaco.Uri.from({ scheme: "file", path: `/${path}` });
}

/** The workspace path of a model made here, or null for any other model. */
export function pathOfUri(uri: monaco.Uri): string | null {
  return uri.scheme === "file" ? uri.path.slice(1) : null;
}

interface FileModel {
  path: string;
  model: Model;
  /** Keeps a file no tab shows equal to its text; null while a tab's binding does. */
  mirror: Mirror | null;
}

/**
 * A Monaco model for every file of the workspace, at `fileUri(path)`, kept equal to the
 * file's shared text. Language services see the whole project through them (an import of a
 * file nobody opened resolves), and an edit a service makes to a closed file (a rename)
 * reaches the shared document. An open tab takes its file's model (`take`) and binds it to
 * the editor; the tab gives it back on close (`release`). A renamed file gets a new model:
 * a model's address cannot change.
 */
export class WorkspaceModels {
  private readonly files = new Map<string, FileModel>();
  private readonly taken = new Set<string>();
  private paths: ReadonlyMap<string, string> = new Map();

  constructor(private readonly session: CollabSession) {}

  /** Makes the set of models exactly `paths` (file id to path); a taken file waits for its release. */
  sync(paths: ReadonlyMap<string, string>): void {
    this.paths = paths;
    for (const [id, file] of this.files) {
      if (paths.get(id) !== file.path && !this.taken.has(id)) this.drop(id, file);
    }
    for (const [id, path] of paths) {
      const file = this.files.get(id);
      if (!file) this.create(id, path);
      else if (file.path !== path) this.move(id, file, path);
    }
  }

  /** The file's model for a tab to bind; no mirror writes to it until `release`. */
  take(id: string, path: string): Model {
    const file = this.files.get(id) ?? this.create(id, path);
    if (file.path !== path) this.move(id, file, path);
    this.taken.add(id);
    file.mirror?.destroy();
    file.mirror = null;
    return file.model;
  }

  /** The tab closed: the model stays, kept equal to the text by a mirror again. */
  release(id: string): void {
    this.taken.delete(id);
    const file = this.files.get(id);
    if (!file) return;
    // Deleted or renamed while its tab was open.
    if (this.paths.get(id) !== file.path || file.model.isDisposed()) this.drop(id, file);
    else file.mirror = new Mirror(this.session.fileText(id), file.model);
  }

  dispose(): void {
    for (const [id, file] of this.files) this.drop(id, file);
    this.taken.clear();
  }

  private create(id: string, path: string): FileModel {
    // A model of an earlier mount (React's strict double effects) may still hold the address.
    monaco.editor.getModel(fileUri(path))?.dispose();
    const model = monaco.editor.createModel("", editorLanguage(path), fileUri(path));
    model.updateOptions({ tabSize: path.endsWith(".py") ? 4 : 2 });
    const file: FileModel = { path, model, mirror: new Mirror(this.session.fileText(id), model) };
    this.files.set(id, file);
    return file;
  }

  /** A taken file was renamed: its tab rebinds to a new model at the new address. */
  private move(id: string, file: FileModel, path: string): void {
    const wasTaken = this.taken.has(id);
    this.drop(id, file);
    const next = this.create(id, path);
    if (wasTaken) {
      next.mirror?.destroy();
      next.mirror = null;
      this.taken.add(id);
    }
  }

  private drop(id: string, file: FileModel): void {
    this.files.delete(id);
    this.taken.delete(id);
    file.mirror?.destroy();
    if (!file.model.isDisposed()) file.model.dispose();
  }

  /** The model of file `id`, if the workspace has it. */
  model(id: string): Model | undefined {
    return this.files.get(id)?.model;
  }
}

/**
 * Keeps a model no editor shows equal to its Y.Text, in both directions: remote edits come
 * in, and an edit made to the model by a language service (a rename across files) goes out
 * as a shared edit.
 */
class Mirror {
  private isApplyingRemote = false;
  private readonly listener: monaco.IDisposable;

  constructor(
    private readonly ytext: Y.Text,
    private readonly model: Model,
  ) {
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    const value = ytext.toString();
    if (model.getValue() !== value) model.setValue(value);
    ytext.observe(this.applyRemote);
    this.listener = model.onDidChangeContent(this.applyLocal);
  }

  destroy(): void {
    this.ytext.unobserve(this.applyRemote);
    this.listener.dispose();
  }

  private readonly applyRemote = (event: Y.YTextEvent, transaction: Y.Transaction) => {
    if (transaction.origin === this || this.model.isDisposed()) return;
    this.isApplyingRemote = true;
    try {
      applyDelta(this.model, event.delta);
    } finally {
      this.isApplyingRemote = false;
    }
  };

  private readonly applyLocal = (event: monaco.editor.IModelContentChangedEvent) => {
    if (this.isApplyingRemote || event.isEolChange) return;
    const doc = this.ytext.doc;
    if (!doc) return;
    doc.transact(() => writeChanges(this.ytext, event.changes), this);
  };
}
