import { useEffect, useRef } from "react";
import { monaco } from "../../../ui/monaco";
import { registerPrettier } from "./prettier";
import type { FormatTarget } from "./runFormat";
import { useFormatStore } from "./store";

let isRegistered = false;

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
      // The diff and the apply are a chunk of their own, like the formatters, fetched at the first format.
      void import("./runFormat")
        .then(({ runFormat }) => runFormat(shown))
        .finally(() => {
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
