import { useCallback, useEffect, useSyncExternalStore } from "react";
import { pageShown } from "../../lib/pageShown";
import type { CollabSession } from "../collab/CollabSession";

const MAX_LINES = 300;

interface FilePreviewProps {
  session: CollabSession;
  fileId: string;
  /** Called once the text has been painted (SharedEditor then loads Monaco). */
  onShown?: () => void;
}

/**
 * The shown file's text as plain numbered lines, where Monaco draws it, in Monaco's font and
 * colours: the file reads as soon as the document has arrived, and Monaco takes its place once
 * it has bound the file. Read-only, kept equal to the shared text while it shows; long lines
 * run past the edge unwrapped until Monaco wraps them.
 */
export function FilePreview({ session, fileId, onShown }: FilePreviewProps) {
  const ytext = session.fileText(fileId);
  const subscribe = useCallback(
    (changed: () => void) => {
      ytext.observe(changed);
      return () => ytext.unobserve(changed);
    },
    [ytext],
  );
  const text = useSyncExternalStore(subscribe, () => ytext.toString());

  useEffect(() => {
    if (!onShown) return;
    let isCurrent = true;
    void pageShown().then(() => {
      if (isCurrent) onShown();
    });
    return () => {
      isCurrent = false;
    };
  }, [onShown]);

  // No window shows more lines than these; the rest waits for Monaco, which scrolls.
  const lines = text.split("\n", MAX_LINES);
  return (
    <div className="file-preview" data-testid="file-preview">
      <pre className="file-preview-gutter" aria-hidden="true">
        {lines.map((_, index) => index + 1).join("\n")}
      </pre>
      <pre className="file-preview-text">{lines.join("\n")}</pre>
    </div>
  );
}
