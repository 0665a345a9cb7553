import type { RenameAdapter } from "monaco-editor/languages/features/typescript/languageFeatures";
import { monaco } from "../../../ui/monaco";
import { pathOfUri } from "../../textModels/workspaceModels";
import type { ServiceContext } from "../types";
import { applySharedEdit, type FileEdits } from "./sharedEdit";

type Model = monaco.editor.ITextModel;

/**
 * Rename Symbol across the workspace as one shared edit. TypeScript finds the places; instead of
 * handing Monaco the edits (it would apply them model by model: one Yjs update per file, and
 * the files no tab shows outside anyone's undo), we write them into the files' shared texts in
 * one transaction, one undo step of the renamer's, and hand Monaco nothing to apply. A viewer's
 * editor is read-only, where Monaco offers no rename; we refuse one anyway.
 */
export function renameProvider(
  adapter: RenameAdapter,
  context: ServiceContext,
): monaco.languages.RenameProvider {
  return {
    async provideRenameEdits(model, position, newName, token) {
      if (context.editor.getOption(monaco.editor.EditorOption.readOnly)) {
        return { edits: [], rejectReason: "You can only read this session" };
      }
      const versions = new Map(monaco.editor.getModels().map((m) => [m, m.getVersionId()]));
      const result = await adapter.provideRenameEdits(model, position, newName, token);
      if (!result || result.rejectReason || token.isCancellationRequested) return result;
      const files = filesOf(result.edits, context, versions);
      applySharedEdit(context.session.doc, files, context.open.undoOf(model));
      return { edits: [] };
    },
  };
}

/** The rename's edits by file, in offsets of the shared texts; throws if any cannot be applied. */
function filesOf(
  edits: monaco.languages.WorkspaceEdit["edits"],
  context: ServiceContext,
  versions: ReadonlyMap<Model, number>,
): FileEdits[] {
  const byModel = new Map<Model, FileEdits>();
  for (const edit of edits) {
    if (!("textEdit" in edit)) throw new Error("A rename here only changes text");
    const model = monaco.editor.getModel(edit.resource);
    const path = pathOfUri(edit.resource);
    const id = path === null ? undefined : context.session.fileIdAt(path);
    if (!model || id === undefined) throw new Error(`${edit.resource.path} is not a file of this workspace`);
    // The places were found in the text as it was when asked: a peer's edit since moves them.
    if (versions.get(model) !== model.getVersionId())
      throw new Error("The files changed meanwhile: rename again");
    const file = byModel.get(model) ?? { ytext: context.session.fileText(id), edits: [] };
    const range = edit.textEdit.range;
    file.edits = [
      ...file.edits,
      {
        start: model.getOffsetAt({ lineNumber: range.startLineNumber, column: range.startColumn }),
        end: model.getOffsetAt({ lineNumber: range.endLineNumber, column: range.endColumn }),
        text: edit.textEdit.text,
      },
    ];
    byModel.set(model, file);
  }
  return [...byModel.values()];
}
