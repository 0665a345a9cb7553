import { monaco } from "../../../ui/monaco";
import { diagnosticsShown, useIntelligenceSettings } from "../settings";
import { debounceByKey } from "./debounce";
import type { RuffClient } from "./ruffClient";
import { isError, markerMessage } from "./ruffDiagnostics";
import type { RuffDiagnostic } from "./ruffProtocol";

const OWNER = "ruff";
/** Quiet time after a keystroke before a file is linted again. */
const LINT_DELAY_MS = 250;

type Model = monaco.editor.ITextModel;

function toMarker(diagnostic: RuffDiagnostic): monaco.editor.IMarkerData {
  return {
    severity: isError(diagnostic) ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
    message: markerMessage(diagnostic),
    source: "Ruff",
    ...(diagnostic.code ? { code: diagnostic.code } : {}),
    tags: diagnostic.tags.map((tag) =>
      tag === "unnecessary" ? monaco.MarkerTag.Unnecessary : monaco.MarkerTag.Deprecated,
    ),
    startLineNumber: diagnostic.start.line,
    startColumn: diagnostic.start.column,
    endLineNumber: diagnostic.end.line,
    // An empty range (end of file) still gets a squiggle one character wide.
    endColumn: Math.max(
      diagnostic.end.column,
      diagnostic.start.line === diagnostic.end.line ? diagnostic.start.column + 1 : 0,
    ),
  };
}

/** A running lint of the workspace's Python models. */
export interface RuffLint extends monaco.IDisposable {
  /** Lints every Python model again (what `isSkipped` says has changed). */
  refresh(): void;
}

/**
 * Ruff's lint as markers on every Python model, again after each pause in typing; cleared
 * while this person has diagnostics off. `isSkipped(code)` leaves out findings another checker
 * (pyright) already reports, so none is marked twice.
 */
export function startRuffLint(ruff: RuffClient, isSkipped: (code: string | null) => boolean): RuffLint {
  const listeners = new Map<Model, monaco.IDisposable>();
  const lint = async (model: Model) => {
    if (model.isDisposed() || !diagnosticsShown()) return;
    const version = model.getVersionId();
    const diagnostics = await ruff.check(model.getValue()).catch(() => null);
    // Stale (typed since) or switched off meanwhile: a newer lint is already scheduled.
    if (!diagnostics || model.isDisposed() || model.getVersionId() !== version || !diagnosticsShown()) return;
    const shown = diagnostics.filter((diagnostic) => !isSkipped(diagnostic.code));
    monaco.editor.setModelMarkers(model, OWNER, shown.map(toMarker));
  };
  const schedule = debounceByKey<Model>(LINT_DELAY_MS, (model) => void lint(model));
  const watch = (model: Model) => {
    if (model.getLanguageId() !== "python" || listeners.has(model)) return;
    void lint(model);
    const changed = model.onDidChangeContent(() => schedule.call(model));
    const gone = model.onWillDispose(() => {
      schedule.cancel(model);
      listeners.get(model)?.dispose();
      listeners.delete(model);
    });
    listeners.set(model, {
      dispose: () => {
        changed.dispose();
        gone.dispose();
      },
    });
  };
  for (const model of monaco.editor.getModels()) watch(model);
  const created = monaco.editor.onDidCreateModel(watch);
  const relabelled = monaco.editor.onDidChangeModelLanguage(({ model }) => watch(model));
  const unsubscribe = useIntelligenceSettings.subscribe((now, before) => {
    if (now.diagnostics === before.diagnostics) return;
    for (const model of listeners.keys()) {
      if (now.diagnostics) void lint(model);
      else monaco.editor.setModelMarkers(model, OWNER, []);
    }
  });
  return {
    refresh: () => {
      for (const model of listeners.keys()) void lint(model);
    },
    dispose: () => {
      unsubscribe();
      created.dispose();
      relabelled.dispose();
      schedule.cancelAll();
      for (const [model, listener] of listeners) {
        listener.dispose();
        if (!model.isDisposed()) monaco.editor.setModelMarkers(model, OWNER, []);
      }
      listeners.clear();
    },
  };
}
