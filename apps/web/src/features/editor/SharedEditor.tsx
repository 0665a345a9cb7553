import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { EditorErrorBoundary } from "../../ui/EditorErrorBoundary";
import type { CollabSession } from "../collab/CollabSession";
import { FilePreview } from "./FilePreview";
import type { CodeEditorProps } from "./monaco/CodeEditor";

// Monaco is most of the editor's weight: its own chunk, loaded once the file's text shows.
const CodeEditor = lazy(() => import("./monaco/CodeEditor"));

type SharedEditorProps = Omit<CodeEditorProps, "preview"> & {
  session: CollabSession;
  /** The file shown, or null while no tab is open. */
  activeId: string | null;
  /** There is a text to show (see the collab store). */
  hasDocument: boolean;
  /** How many files the workspace holds. */
  fileCount: number;
};

/**
 * The editor of the shown file. Until Monaco is bound, the file's text is drawn as plain lines
 * in its place (FilePreview), and Monaco's chunk is asked for only once that text has been
 * painted, or once the document turns out to have no file to show: the file shows as soon as
 * the document arrives, not after Monaco's megabytes, and nothing of Monaco competes with the
 * document for the network before it does.
 */
export function SharedEditor({ session, activeId, hasDocument, fileCount, ...props }: SharedEditorProps) {
  const [isMonacoWanted, setIsMonacoWanted] = useState(false);
  const wantMonaco = useCallback(() => setIsMonacoWanted(true), []);
  const hasNoFile = hasDocument && fileCount === 0;
  useEffect(() => {
    if (hasNoFile) wantMonaco();
  }, [hasNoFile, wantMonaco]);

  const preview =
    hasDocument && activeId !== null ? (
      <FilePreview key={activeId} session={session} fileId={activeId} onShown={wantMonaco} />
    ) : null;
  const placeholder = (isLoading: boolean) => (
    <div className="code-editor-frame">
      {preview}
      {isLoading && <p className="editor-note">Loading editor…</p>}
    </div>
  );
  return (
    <EditorErrorBoundary>
      <Suspense fallback={placeholder(true)}>
        {isMonacoWanted ? <CodeEditor session={session} preview={preview} {...props} /> : placeholder(false)}
      </Suspense>
    </EditorErrorBoundary>
  );
}
