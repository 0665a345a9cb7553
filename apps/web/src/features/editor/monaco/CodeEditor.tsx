import { type ReactNode, type RefObject, useEffect, useMemo, useRef, useState } from "react";
import type * as Y from "yjs";
import { EDITOR_THEME, monaco } from "../../../ui/monaco";
import type { CollabSession } from "../../collab/CollabSession";
import type { PeerState } from "../../collab/presence";
import { useCollabStore } from "../../collab/store";
import { useRunMarkers } from "../../diagnostics/useRunMarkers";
import { GitBadge } from "../../git/GitBadge";
import { useCompletionGate } from "../../intelligence/controls/useCompletionGate";
import { useFormatDocument } from "../../intelligence/format/useFormatDocument";
import { useLanguageServices } from "../../intelligence/services";
import { OpenModels } from "../../textModels/openModels";
import { WorkspaceModels } from "../../textModels/workspaceModels";
import { revealed, useOpenFiles } from "../../workspace/store";
import { RemoteCursors, resolveHead } from "./remoteCursors";

export interface CodeEditorProps {
  session: CollabSession;
  /** False until there is a text to edit (server sync or an offline copy). */
  canEdit: boolean;
  /** Filled with a function that focuses the editor (the file tree uses it). */
  focusRef: RefObject<(() => void) | null>;
  /** The participant whose file, caret and scroll we follow, if any. */
  followId: string | null;
  /** The user typed or clicked in the editor: following stops. */
  onTakeOver: () => void;
  /** Opens a file (follow mode goes where the followed person goes). */
  onOpenFile: (id: string) => void;
  /** What shows in Monaco's place until it has bound the shown file (its text, drawn plainly). */
  preview?: ReactNode;
}

const OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  theme: EDITOR_THEME,
  automaticLayout: true,
  minimap: { enabled: true },
  wordWrap: "on",
  lineNumbers: "on",
  fontSize: 14,
  fontFamily: "'JetBrains Mono', ui-monospace, monospace",
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
  // Squiggles in a viewer's read-only editor too (Monaco's default draws them only where one can edit).
  renderValidationDecorations: "on",
  padding: { top: 8 },
};

/**
 * Monaco showing the active tab's file. Each open file has its own model bound to its
 * Y.Text and its own undo (Ctrl/Cmd+Z never takes back a collaborator's edit); remote
 * cursors show only for people in the shown file. We publish which file we look at and its
 * first visible line, so others can follow us.
 */
export default function CodeEditor({
  session,
  canEdit,
  focusRef,
  followId,
  onTakeOver,
  onOpenFile,
  preview,
}: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const undoRef = useRef<Y.UndoManager | null>(null);
  const [editor, setEditor] = useState<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [models, setModels] = useState<OpenModels | null>(null);
  const [workspace, setWorkspace] = useState<WorkspaceModels | null>(null);
  const [isBound, setIsBound] = useState(false);
  const openIds = useOpenFiles((s) => s.openIds);
  const activeId = useOpenFiles((s) => s.activeId);
  const reveal = useOpenFiles((s) => s.reveal);
  const files = useCollabStore((s) => s.files);
  const activePath = files.find((f) => f.id === activeId)?.path ?? null;
  const takeOver = useRef(onTakeOver);
  takeOver.current = onTakeOver;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const instance = monaco.editor.create(host, { ...OPTIONS, model: null, readOnly: true });
    const { KeyMod, KeyCode } = monaco;
    instance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyZ, () => undoRef.current?.undo());
    instance.addCommand(KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.KeyZ, () => undoRef.current?.redo());
    instance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyY, () => undoRef.current?.redo());
    // Typing or clicking in the editor ends follow mode (Escape is handled by the screen).
    const keys = instance.onKeyDown((event) => {
      if (event.keyCode !== KeyCode.Escape) takeOver.current();
    });
    const clicks = instance.onMouseDown(() => takeOver.current());
    // Monaco measures glyphs once; JetBrains Mono may arrive after it did.
    void document.fonts?.ready.then(() => monaco.editor.remeasureFonts());
    const workspace = new WorkspaceModels(session);
    const open = new OpenModels(session, instance, workspace);
    setEditor(instance);
    setModels(open);
    setWorkspace(workspace);
    focusRef.current = () => instance.focus();
    return () => {
      focusRef.current = null;
      keys.dispose();
      clicks.dispose();
      open.dispose();
      workspace.dispose();
      instance.dispose();
      setEditor(null);
      setModels(null);
      setWorkspace(null);
    };
  }, [session, focusRef]);

  // Every file's path by id (ids never change), and the open tabs'.
  const paths = useMemo(() => new Map(files.map((f) => [f.id, f.path])), [files]);
  const openPaths = useMemo(
    () => new Map(openIds.flatMap((id) => (paths.has(id) ? [[id, paths.get(id) as string]] : []))),
    [openIds, paths],
  );

  // A model for every file (language services see the project), the open tabs bound to theirs.
  useEffect(() => {
    workspace?.sync(paths);
    models?.sync(openPaths);
  }, [workspace, models, paths, openPaths]);

  // Completions, diagnostics, hover... of the workspace's languages, each loaded when first needed.
  useLanguageServices(session, editor, workspace, models);

  // Format Document (Shift+Alt+F and the top bar's button) for the shown tab.
  useFormatDocument(editor, () => {
    const open = activeId === null ? undefined : models?.get(activeId);
    return open && activePath !== null ? { ...open, path: activePath } : null;
  });

  // No completion list while this person or the session's host has completions off.
  useCompletionGate(editor);

  // The last run's errors on every open file, for everyone (after the sync above made their models).
  useRunMarkers(models, openPaths);

  // Shows the active file, with its view state and its people's cursors.
  useEffect(() => {
    if (!editor || !models || activeId === null) return;
    const open = models.get(activeId);
    if (!open) return;
    editor.setModel(open.model);
    if (open.viewState) editor.restoreViewState(open.viewState);
    undoRef.current = open.undo;
    const cursors = new RemoteCursors(editor, session, open.ytext);
    setIsBound(true);
    return () => {
      setIsBound(false);
      open.viewState = editor.saveViewState();
      undoRef.current = null;
      cursors.dispose();
    };
  }, [editor, models, activeId, session]);

  // A place asked for (a `path:line` link in the terminal): the caret goes there, in view.
  useEffect(() => {
    if (!editor || !isBound || !reveal || reveal.id !== activeId) return;
    const position = { lineNumber: reveal.line, column: reveal.column ?? 1 };
    editor.setPosition(position);
    editor.revealPositionInCenter(position);
    editor.focus();
    revealed(reveal);
  }, [editor, isBound, reveal, activeId]);

  // Marks our own edits (typing indicator, name label for others).
  useEffect(() => {
    if (!models || activeId === null) return;
    const open = models.get(activeId);
    if (!open) return;
    const handleChange = (_event: Y.YTextEvent, transaction: Y.Transaction) => {
      if (transaction.local) session.noteLocalEdit();
    };
    open.ytext.observe(handleChange);
    return () => open.ytext.unobserve(handleChange);
  }, [models, activeId, session]);

  // Tells the others where we are: the file and the first line we see.
  useEffect(() => {
    if (!editor) return;
    const publish = () => {
      const top = editor.getModel() ? (editor.getVisibleRanges()[0]?.startLineNumber ?? 1) : null;
      session.setViewing(activePath, top);
    };
    publish();
    const scroll = editor.onDidScrollChange(publish);
    return () => scroll.dispose();
  }, [editor, session, activePath]);

  // Follow mode: go to the followed person's file, caret and scroll as they move.
  useEffect(() => {
    if (!editor || !models || followId === null) return;
    const follow = () => {
      const peer = latestState(session.peers(), followId);
      if (!peer?.file) return;
      const id = session.fileIdAt(peer.file);
      if (!id) return;
      if (activeId !== id) {
        onOpenFile(id);
        return;
      }
      const open = models.get(id);
      if (!open || editor.getModel() !== open.model) return;
      if (peer.top !== null) editor.setScrollTop(editor.getTopForLineNumber(peer.top));
      const head = resolveHead(peer.head, open.ytext, open.model);
      if (head) editor.revealPositionInCenterIfOutsideViewport(head);
    };
    follow();
    session.awareness.on("change", follow);
    return () => session.awareness.off("change", follow);
  }, [editor, models, followId, session, onOpenFile, activeId]);

  const fileLabel = activePath ?? "No file open";
  useEffect(() => {
    editor?.updateOptions({ readOnly: !canEdit, ariaLabel: `${fileLabel} code editor` });
    session.setEditorReady(isBound && canEdit);
    return () => session.setEditorReady(false);
  }, [editor, session, isBound, canEdit, fileLabel]);

  return (
    <div className="code-editor-frame">
      <div ref={hostRef} className="code-editor" data-testid="code-editor" data-file={activePath ?? ""} />
      {!isBound && preview}
      <GitBadge path={activePath} />
    </div>
  );
}

/** The state of a person's most recently active tab. */
function latestState(peers: ReadonlyMap<number, PeerState>, userId: string): PeerState | undefined {
  let latest: PeerState | undefined;
  for (const peer of peers.values()) {
    if (peer.userId !== userId) continue;
    if (!latest || (peer.lastEdit ?? 0) >= (latest.lastEdit ?? 0)) latest = peer;
  }
  return latest;
}
