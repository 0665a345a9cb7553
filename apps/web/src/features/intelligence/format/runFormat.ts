import { toast } from "react-toastify/unstyled";
import type * as Y from "yjs";
import type { monaco } from "../../../ui/monaco";
import { formatterFor } from "../formatters";
import { applyFormat } from "./applyFormat";

/** What formatting needs of the shown tab: its shared text, its model and its owner's undo. */
export interface FormatTarget {
  path: string;
  ytext: Y.Text;
  model: monaco.editor.ITextModel;
  undo: Y.UndoManager;
}

export const FORMAT_TEXT = {
  none: (language: string) => `There is no formatter for ${language} files.`,
  failed: (path: string, reason: string) => `Could not format ${path}: ${reason}`,
  moved: "The file changed while it was being formatted. Format it again.",
};

/** Formats the target's whole text and applies only what changed, as one shared edit. */
export async function runFormat(target: FormatTarget): Promise<void> {
  const language = target.model.getLanguageId();
  const format = formatterFor(language);
  if (!format) {
    toast.info(FORMAT_TEXT.none(language));
    return;
  }
  const before = target.ytext.toString();
  let formatted: string;
  try {
    formatted = await format(before, target.path);
  } catch (error) {
    toast.error(FORMAT_TEXT.failed(target.path, error instanceof Error ? error.message : String(error)));
    return;
  }
  if (!applyFormat(target.ytext, target.undo, before, formatted)) toast.info(FORMAT_TEXT.moved);
}
