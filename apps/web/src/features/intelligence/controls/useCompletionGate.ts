import { useEffect } from "react";
import { monaco } from "../../../ui/monaco";
import { completionsAllowed, useIntelligenceSettings } from "../settings";

/** Set while completions are off: the keys that ask for a list do nothing. */
const OFF_KEY = "ensembleCompletionsOff";

// Monaco's own defaults, put back when completions come back on.
const ON: monaco.editor.IEditorOptions & monaco.editor.IGlobalEditorOptions = {
  quickSuggestions: { other: "on", comments: "off", strings: "off" },
  suggestOnTriggerCharacters: true,
  wordBasedSuggestions: "currentDocument",
};
const OFF: monaco.editor.IEditorOptions & monaco.editor.IGlobalEditorOptions = {
  quickSuggestions: false,
  suggestOnTriggerCharacters: false,
  wordBasedSuggestions: "off",
};

/**
 * Keeps the editor's own completion (word suggestions, the list as you type, Ctrl+Space)
 * off while this person or the session's host has completions off, and on otherwise. The
 * language services' providers ask `completionsAllowed()` themselves.
 */
export function useCompletionGate(editor: monaco.editor.IStandaloneCodeEditor | null): void {
  useEffect(() => {
    if (!editor) return;
    const isOff = editor.createContextKey<boolean>(OFF_KEY, false);
    // Ctrl+Space, Ctrl+I (and the Mac's keys): nothing at all, not even "No suggestions".
    const { KeyMod, KeyCode } = monaco;
    for (const key of [
      KeyMod.CtrlCmd | KeyCode.Space,
      KeyMod.CtrlCmd | KeyCode.KeyI,
      KeyMod.WinCtrl | KeyCode.Space,
    ])
      editor.addCommand(key, () => undefined, OFF_KEY);
    // Null: set the options at the first call whatever they were (an earlier mount may have left them off).
    let wasAllowed: boolean | null = null;
    const apply = () => {
      const isAllowed = completionsAllowed();
      if (isAllowed === wasAllowed) return;
      wasAllowed = isAllowed;
      isOff.set(!isAllowed);
      editor.updateOptions(isAllowed ? ON : OFF);
      if (!isAllowed) editor.trigger("completions-off", "hideSuggestWidget", null);
    };
    apply();
    const unsubscribe = useIntelligenceSettings.subscribe(apply);
    return () => {
      unsubscribe();
      isOff.reset();
    };
  }, [editor]);
}
