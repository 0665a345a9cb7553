import { flattenDiagnosticMessageText } from "monaco-editor/languages/features/typescript/languageFeatures";
import type { Diagnostic, TypeScriptWorker } from "monaco-editor/languages/features/typescript/register";
import { monaco } from "../../../ui/monaco";
import { diagnosticsShown, useIntelligenceSettings } from "../settings";

type Model = monaco.editor.ITextModel;

/** The markers' owner, so other owners' (a run's errors) are left alone. */
export const MARKER_OWNER = "typescript";
/** After the last keystroke, as Monaco's own TypeScript mode waits. */
const TYPING_PAUSE_MS = 500;
/** "This CommonJS file may be converted to an ES module": a hint on nearly every Node script. */
const IGNORED_CODES = new Set([80001]);

/**
 * Marks TypeScript's errors, warnings and hints on the workspace's scripts. An edit to one
 * file rechecks it and every file shown in an editor, since a change in `util.ts` can break
 * the open `main.ts` (Monaco's own mode rechecks only the edited file). Files nobody shows
 * are checked when they change, not on every edit elsewhere: a 200-file workspace stays cheap.
 * Markers follow the person's setting live: off clears them, on checks the shown files again.
 */
export class Diagnostics {
  private readonly listeners = new Map<Model, monaco.IDisposable>();
  private readonly disposables: monaco.IDisposable[] = [];
  private readonly pending = new Set<Model>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private isDisposed = false;

  constructor(
    private readonly worker: () => Promise<TypeScriptWorker>,
    private readonly isScript: (model: Model) => boolean,
    /** Called after each round of checks has set its markers. */
    private readonly onChecked: () => void,
  ) {
    for (const model of monaco.editor.getModels()) this.watch(model);
    this.disposables.push(
      monaco.editor.onDidCreateModel((model) => this.watch(model)),
      monaco.editor.onWillDisposeModel((model) => this.unwatch(model)),
      monaco.editor.onDidChangeModelLanguage(({ model }) => {
        this.unwatch(model);
        this.watch(model);
      }),
    );
    const unsubscribe = useIntelligenceSettings.subscribe((now, before) => {
      if (now.diagnostics === before.diagnostics) return;
      if (now.diagnostics) this.schedule(null, 0);
      else for (const model of this.listeners.keys()) monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
    });
    this.disposables.push({ dispose: unsubscribe });
    this.schedule(null, 0);
  }

  /** Checks the shown files again now (new declaration files, a restarted worker). */
  recheck(): void {
    this.schedule(null, 0);
  }

  dispose(): void {
    this.isDisposed = true;
    clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
    for (const model of [...this.listeners.keys()]) this.unwatch(model);
  }

  private watch(model: Model): void {
    if (!this.isScript(model) || this.listeners.has(model)) return;
    const edits = model.onDidChangeContent(() => this.schedule(model, TYPING_PAUSE_MS));
    const shown = model.onDidChangeAttached(() => {
      if (model.isAttachedToEditor()) this.schedule(model, 0);
    });
    this.listeners.set(model, {
      dispose: () => {
        edits.dispose();
        shown.dispose();
      },
    });
  }

  private unwatch(model: Model): void {
    this.listeners.get(model)?.dispose();
    this.listeners.delete(model);
    this.pending.delete(model);
    if (!model.isDisposed()) monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
  }

  private schedule(model: Model | null, delay: number): void {
    if (model) this.pending.add(model);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.checkPending(), delay);
  }

  private async checkPending(): Promise<void> {
    const shown = [...this.listeners.keys()].filter((model) => model.isAttachedToEditor());
    const models = [...new Set([...shown, ...this.pending])];
    this.pending.clear();
    try {
      // Asked even with nothing to check: the first round is the service's warm-up.
      const worker = await this.worker();
      if (diagnosticsShown()) await Promise.all(models.map((model) => this.check(worker, model)));
      if (!this.isDisposed) this.onChecked();
    } catch (error) {
      // A worker stopped for new options rejects what it was asked; the restart checks again.
      if (!this.isDisposed) console.warn("TypeScript diagnostics failed", error);
    }
  }

  private async check(worker: TypeScriptWorker, model: Model): Promise<void> {
    const version = model.getVersionId();
    const file = model.uri.toString();
    const found = await Promise.all([
      worker.getSyntacticDiagnostics(file),
      worker.getSemanticDiagnostics(file),
      worker.getSuggestionDiagnostics(file),
    ]);
    // A newer edit has its own check coming; the settings may have changed meanwhile.
    if (this.isDisposed || model.isDisposed() || model.getVersionId() !== version) return;
    if (!this.listeners.has(model) || !diagnosticsShown()) return;
    const markers = found.flat().flatMap((d) => (IGNORED_CODES.has(d.code) ? [] : [toMarker(model, d)]));
    monaco.editor.setModelMarkers(model, MARKER_OWNER, markers);
  }
}

/** A TypeScript diagnostic as a Monaco marker on its model. */
export function toMarker(model: Model, diagnostic: Diagnostic): monaco.editor.IMarkerData {
  const start = model.getPositionAt(diagnostic.start ?? 0);
  const end = model.getPositionAt((diagnostic.start ?? 0) + (diagnostic.length ?? 1));
  const tags: monaco.MarkerTag[] = [];
  if (diagnostic.reportsUnnecessary) tags.push(monaco.MarkerTag.Unnecessary);
  if (diagnostic.reportsDeprecated) tags.push(monaco.MarkerTag.Deprecated);
  return {
    severity: SEVERITIES[diagnostic.category],
    startLineNumber: start.lineNumber,
    startColumn: start.column,
    endLineNumber: end.lineNumber,
    endColumn: end.column,
    message: flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
    code: String(diagnostic.code),
    source: "ts",
    tags,
  };
}

/** By TypeScript's category: warning, error, suggestion, message. */
const SEVERITIES: Record<Diagnostic["category"], monaco.MarkerSeverity> = {
  0: monaco.MarkerSeverity.Warning,
  1: monaco.MarkerSeverity.Error,
  2: monaco.MarkerSeverity.Hint,
  3: monaco.MarkerSeverity.Info,
};
