import type { Diagnostic } from "@ensemble/protocol";
import { useEffect } from "react";
import { monaco } from "../../ui/monaco";
import { markerRanges } from "./ranges";
import { useRunDiagnostics } from "./store";

/** The markers' owner: the run's, beside any other source of markers. */
export const RUN_MARKER_OWNER = "run";

/** The open files' models by file id. */
export interface ModelSource {
  get(id: string): { model: monaco.editor.ITextModel } | undefined;
}

/** What each model was last given, so it is not set again for nothing. */
const applied = new WeakMap<monaco.editor.ITextModel, { diagnostics: Diagnostic[]; path: string }>();

/**
 * Puts the last run's diagnostics on the open files' models (`openPaths`: id to path) as
 * Monaco markers, and on each file's model when it opens; a run's start (no diagnostics) clears them. A model is set
 * again only when the diagnostics or its path change, so markers Monaco moved with later
 * edits stay where the edits put them.
 */
export function useRunMarkers(models: ModelSource | null, openPaths: ReadonlyMap<string, string>): void {
  const diagnostics = useRunDiagnostics((s) => s.diagnostics);
  useEffect(() => {
    const waiting: monaco.IDisposable[] = [];
    // Read here, not while rendering: the models of newly opened files exist once the
    // editor's own effect (before this one) has made them.
    for (const [id, path] of openPaths) {
      const model = models?.get(id)?.model;
      if (!model) continue;
      const last = applied.get(model);
      if (last?.diagnostics === diagnostics && last.path === path) continue;
      if (setMarkers(model, path, diagnostics)) continue;
      // Some lines are not there yet (the file's text is still arriving): again on each change until they are.
      const change = model.onDidChangeContent(() => {
        if (setMarkers(model, path, diagnostics)) change.dispose();
      });
      waiting.push(change);
    }
    return () => {
      for (const change of waiting) change.dispose();
    };
  }, [models, openPaths, diagnostics]);
}

/** Sets the model's run markers; false when some of its diagnostics' lines are past its end. */
function setMarkers(model: monaco.editor.ITextModel, path: string, diagnostics: Diagnostic[]): boolean {
  const lineCount = model.getLineCount();
  const ranges = markerRanges(diagnostics, path, { lineCount, line: (n) => model.getLineContent(n) });
  monaco.editor.setModelMarkers(
    model,
    RUN_MARKER_OWNER,
    ranges.map(({ severity, ...range }) => ({
      ...range,
      severity: severity === "error" ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
      source: "run",
    })),
  );
  const isComplete = diagnostics.every((d) => d.path !== path || d.line <= lineCount);
  if (isComplete) applied.set(model, { diagnostics, path });
  return isComplete;
}
