import { useEffect, useRef } from "react";
import { toast } from "react-toastify/unstyled";
import type * as Y from "yjs";
import { monaco } from "../../../ui/monaco";
import { formatterFor } from "../formatters";
import { applyFormat } from "./applyFormat";
import { registerPrettier } from "./prettier";
import { useFormatStore } from "./store";

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

let isRegistered = false;

/** Formats the target's whole text and applies only what changed, as one shared edit. */
async function formatTarget(target: FormatTarget): Promise<void> {
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

/**
 * Format Document for the shown file: Shift+Alt+F and the editor's context menu (both only
 * while the editor is editable, so never for a viewer), and `useFormatStore.run` for the
 * button. `target` answers the tab shown at the moment of the call.
 */
export function useFormatDocument(
  editor: monaco.editor.IStandaloneCodeEditor | null,
  target: () => FormatTarget | null,
): void {
  const targetRef = useRef(target);
  targetRef.current = target;

  useEffect(() => {
    if (!editor) return;
    if (!isRegistered) {
      registerPrettier();
      isRegistered = true;
    }
    let isGone = false;
    const run = () => {
      const shown = targetRef.current();
      if (!shown || editor.getOption(monaco.editor.EditorOption.readOnly)) return;
      if (useFormatStore.getState().isFormatting) return;
      useFormatStore.setState({ isFormatting: true });
      void formatTarget(shown).finally(() => {
        if (!isGone) useFormatStore.setState({ isFormatting: false });
      });
    };
    const { KeyMod, KeyCode } = monaco;
    const action = editor.addAction({
      id: "ensemble.formatDocument",
      label: "Format Document",
      keybindings: [KeyMod.Shift | KeyMod.Alt | KeyCode.KeyF],
      precondition: "!editorReadonly",
      contextMenuGroupId: "1_modification",
      run,
    });
    useFormatStore.setState({ run, isFormatting: false });
    return () => {
      isGone = true;
      action.dispose();
      useFormatStore.setState({ run: null, isFormatting: false });
    };
  }, [editor]);
}
