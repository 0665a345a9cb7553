import type { PrFileDiff } from "@ensemble/protocol";
import { useEffect, useRef, useState } from "react";
import { KEEPS_ESCAPE } from "../../ui/Dialog";
import { EDITOR_THEME, monaco } from "../../ui/monaco";
import { editorLanguage } from "../workspace/tree";
import { selectPr } from "./store";
// The diff editor's own commands (next change, collapse unchanged regions); the editor's
// setup leaves them out since only this view needs them.
import "monaco-editor/features/diffEditor/register";

const STATUS_LETTERS: Record<PrFileDiff["status"], string> = {
  added: "A",
  modified: "M",
  deleted: "D",
  renamed: "R",
};

/** Each diff is as tall as its content (unchanged regions folded), within these bounds. */
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 480;

const OPTIONS: monaco.editor.IStandaloneDiffEditorConstructionOptions = {
  theme: EDITOR_THEME,
  readOnly: true,
  originalEditable: false,
  renderSideBySide: true,
  // Side by side even in a narrow panel: the review is about comparing the two.
  useInlineViewWhenSpaceIsLimited: false,
  hideUnchangedRegions: { enabled: true },
  automaticLayout: true,
  minimap: { enabled: false },
  renderOverviewRuler: false,
  scrollBeyondLastLine: false,
  fontSize: 13,
  fontFamily: "'JetBrains Mono', ui-monospace, monospace",
  // The panel scrolls past a diff unless the diff itself can scroll.
  scrollbar: { alwaysConsumeMouseWheel: false },
};

/** Model URIs must be unique; a counter keeps two views of one PR apart. */
let nextViewId = 0;

/** Every changed file of a PR, the target's side on the left and the PR's on the right. */
export default function PrDiffView({ files }: { files: PrFileDiff[] }) {
  return (
    <div className="pr-diffs">
      {files.map((file) => (
        <section
          key={file.path}
          className="pr-diff"
          data-testid="pr-diff"
          data-path={file.path}
          data-status={file.status}
          aria-label={`Changes to ${file.path}`}
        >
          <header className="pr-diff-header">
            <span className={`pr-file-status pr-file-${file.status}`} title={file.status}>
              {STATUS_LETTERS[file.status]}
            </span>
            <span className="pr-diff-path">
              {file.previousPath ? `${file.previousPath} → ${file.path}` : file.path}
            </span>
          </header>
          {file.isBinary ? (
            <p className="pr-note">Binary file: its contents are not shown.</p>
          ) : (
            <DiffEditor file={file} />
          )}
        </section>
      ))}
    </div>
  );
}

function DiffEditor({ file }: { file: PrFileDiff }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(MAX_HEIGHT / 2);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const id = nextViewId++;
    const uri = (side: string, path: string) =>
      monaco.Uri.from({ scheme: "pr-diff", path: `/${id}/${side}/${path}` });
    const before = monaco.editor.createModel(
      file.before,
      editorLanguage(file.previousPath ?? file.path),
      uri("before", file.previousPath ?? file.path),
    );
    const after = monaco.editor.createModel(file.after, editorLanguage(file.path), uri("after", file.path));
    const editor = monaco.editor.createDiffEditor(host, OPTIONS);
    editor.setModel({ original: before, modified: after });
    const sides = [editor.getOriginalEditor(), editor.getModifiedEditor()];
    // The diff editor's own ariaLabel does not reach its two sides, which screen readers read.
    sides[0]?.updateOptions({ ariaLabel: `${file.previousPath ?? file.path} on the target branch` });
    sides[1]?.updateOptions({ ariaLabel: `${file.path} in the pull request` });
    const fit = () => {
      const content = Math.max(...sides.map((side) => side.getContentHeight()));
      setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, content)));
    };
    const listeners = sides.map((side) => side.onDidContentSizeChange(fit));
    fit();
    // Escape never closes the review panel from here (the dialog leaves it to this part).
    // Monaco stops the propagation of an Escape it uses (closing its find widget, say); one
    // that reaches this host closes the diff, and the panel gives focus to the PR's row, from
    // where a second Escape closes the panel.
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") selectPr(null);
    };
    host.addEventListener("keydown", closeOnEscape);
    return () => {
      host.removeEventListener("keydown", closeOnEscape);
      for (const listener of listeners) listener.dispose();
      editor.dispose();
      before.dispose();
      after.dispose();
    };
  }, [file]);

  // Escape in the diff is Monaco's (closing its find widget, say), not the review panel's.
  return <div ref={hostRef} className="pr-diff-editor" style={{ height }} {...KEEPS_ESCAPE} />;
}
