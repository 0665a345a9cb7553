import { LANGUAGES, type Language } from "@ensemble/protocol";
import { type RefObject, useEffect, useRef, useState } from "react";
import * as Y from "yjs";
import type { CollabSession } from "../../collab/CollabSession";
import { TextBinding } from "./binding";
import { RemoteCursors } from "./remoteCursors";
import { monaco } from "./setup";

interface CodeEditorProps {
  session: CollabSession;
  language: Language;
  /** False until there is a text to edit (server sync or an offline copy). */
  canEdit: boolean;
  /** Filled with a function that focuses the editor (the file tree uses it). */
  focusRef: RefObject<(() => void) | null>;
}

const OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  theme: "vs-dark",
  automaticLayout: true,
  minimap: { enabled: true },
  wordWrap: "on",
  lineNumbers: "on",
  fontSize: 14,
  fontFamily: "'JetBrains Mono', ui-monospace, monospace",
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
  padding: { top: 8 },
};

/** Groups keystrokes typed within this window into one undo step. */
const UNDO_CAPTURE_MS = 500;

/**
 * Monaco bound to the session's Y.Text of the current language's file. Undo and redo use a
 * Y.UndoManager that tracks only this binding's changes, so Ctrl/Cmd+Z never takes back a
 * collaborator's edit. Switching language rebinds to the other file's text.
 */
export default function CodeEditor({ session, language, canEdit, focusRef }: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const undoRef = useRef<Y.UndoManager | null>(null);
  const [editor, setEditor] = useState<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [isBound, setIsBound] = useState(false);
  const file = LANGUAGES[language].file;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const instance = monaco.editor.create(host, { ...OPTIONS, model: null, readOnly: true });
    const { KeyMod, KeyCode } = monaco;
    instance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyZ, () => undoRef.current?.undo());
    instance.addCommand(KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.KeyZ, () => undoRef.current?.redo());
    instance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyY, () => undoRef.current?.redo());
    // Monaco measures glyphs once; JetBrains Mono may arrive after it did.
    void document.fonts?.ready.then(() => monaco.editor.remeasureFonts());
    setEditor(instance);
    focusRef.current = () => instance.focus();
    return () => {
      focusRef.current = null;
      instance.dispose();
      setEditor(null);
    };
  }, [focusRef]);

  useEffect(() => {
    if (!editor) return;
    const ytext = session.fileText(language);
    const model = monaco.editor.createModel("", LANGUAGES[language].id);
    // One line ending everywhere: the binding maps offsets, and \r\n on one peer would shift them.
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    model.updateOptions({ tabSize: language === "python" ? 4 : 2 });
    editor.setModel(model);
    const binding = new TextBinding(ytext, model, editor, session.awareness);
    const undo = new Y.UndoManager(ytext, {
      trackedOrigins: new Set([binding]),
      captureTimeout: UNDO_CAPTURE_MS,
    });
    undoRef.current = undo;
    const handleChange = (_event: Y.YTextEvent, transaction: Y.Transaction) => {
      if (transaction.local) session.noteLocalEdit();
    };
    ytext.observe(handleChange);
    const cursors = new RemoteCursors(editor, session, ytext);
    setIsBound(true);
    return () => {
      setIsBound(false);
      cursors.dispose();
      ytext.unobserve(handleChange);
      undoRef.current = null;
      undo.destroy();
      binding.destroy();
      editor.setModel(null);
      model.dispose();
    };
  }, [editor, session, language]);

  useEffect(() => {
    editor?.updateOptions({ readOnly: !canEdit, ariaLabel: `${file} code editor` });
    session.setEditorReady(isBound && canEdit);
    return () => session.setEditorReady(false);
  }, [editor, session, isBound, canEdit, file]);

  return <div ref={hostRef} className="code-editor" data-testid="code-editor" />;
}
