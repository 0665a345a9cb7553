import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";
import { monaco } from "../../ui/monaco";
import {
  type RelativeSelection,
  readSelectionJSON,
  toRelativeSelection,
  toSelectionJSON,
  toTextSelection,
} from "./caret";
import { revertEdits, sizeProblem } from "./sizeGuard";

type Model = monaco.editor.ITextModel;

/** One replacement in offsets of the model before the change. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Keeps one Monaco model and one Y.Text equal, in both directions, for one editor. Several
 * bindings may share the editor (one per open file): all keep their model in sync, and only
 * the one whose model the editor shows saves and restores the local carets (caret.ts: a
 * caret stays with its owner's last character) and publishes `selection: { anchor, head }`
 * to awareness. Local edits are applied with this binding as the transaction origin, so a
 * `Y.UndoManager` with `trackedOrigins: new Set([binding])` undoes only them. Remote
 * selections are drawn with y-monaco's classes `yRemoteSelection-{clientID}` and
 * `yRemoteSelectionHead-{clientID}`.
 */
export class TextBinding {
  private readonly doc: Y.Doc;
  private readonly listeners: monaco.IDisposable[] = [];
  private savedSelections: RelativeSelection[] | null = null;
  private remoteDecorations: string[] = [];
  /** The selection we last put in awareness, to clear it when we go if it is still ours. */
  private published: unknown = null;
  private isApplyingLocal = false;
  private isApplyingRemote = false;
  private isDestroyed = false;

  constructor(
    private readonly ytext: Y.Text,
    private readonly model: Model,
    private readonly editor: monaco.editor.ICodeEditor,
    private readonly awareness: Awareness | null = null,
    /** Told why a local change was refused (it would push the file past its size limit). */
    private readonly onRefused: (message: string) => void = () => {},
  ) {
    if (!ytext.doc) throw new Error("TextBinding needs a Y.Text that belongs to a Y.Doc");
    this.doc = ytext.doc;
    // Offsets are the contract between the two sides; a \r\n would count twice in Monaco.
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    const value = ytext.toString();
    if (model.getValue() !== value) model.setValue(value);

    this.doc.on("beforeAllTransactions", this.saveSelections);
    ytext.observe(this.applyRemote);
    this.listeners.push(
      model.onDidChangeContent(this.applyLocal),
      model.onWillDispose(() => this.destroy()),
      editor.onDidChangeCursorSelection(() => this.publishSelection()),
      editor.onDidChangeModel(() => this.publishSelection()),
    );
    awareness?.on("change", this.renderRemoteSelections);
    this.publishSelection();
    this.renderRemoteSelections();
  }

  /** Stops syncing and clears what this binding drew and published; safe to call twice. */
  destroy(): void {
    if (this.isDestroyed) return;
    this.isDestroyed = true;
    for (const listener of this.listeners) listener.dispose();
    this.doc.off("beforeAllTransactions", this.saveSelections);
    this.ytext.unobserve(this.applyRemote);
    this.awareness?.off("change", this.renderRemoteSelections);
    if (!this.model.isDisposed())
      this.remoteDecorations = this.model.deltaDecorations(this.remoteDecorations, []);
    const state = this.awareness?.getLocalState();
    if (this.awareness && state && this.published !== null && state.selection === this.published) {
      this.awareness.setLocalStateField("selection", null);
    }
  }

  private isActive(): boolean {
    return !this.isDestroyed && this.editor.getModel() === this.model;
  }

  // Before every transaction that is not our own edit: the carets as relative positions,
  // to put back once a remote change has moved the text under them.
  private readonly saveSelections = () => {
    this.savedSelections = null;
    if (this.isApplyingLocal || !this.isActive()) return;
    const selections = this.editor.getSelections();
    if (!selections) return;
    this.savedSelections = selections.map((s) =>
      toRelativeSelection(this.ytext, {
        anchor: this.model.getOffsetAt(s.getSelectionStart()),
        head: this.model.getOffsetAt(s.getPosition()),
      }),
    );
  };

  private readonly applyRemote = (event: Y.YTextEvent, transaction: Y.Transaction) => {
    if (transaction.origin === this) {
      this.renderRemoteSelections();
      return;
    }
    this.isApplyingRemote = true;
    try {
      applyDelta(this.model, event.delta);
      this.restoreSelections();
    } finally {
      this.isApplyingRemote = false;
    }
    this.publishSelection();
    this.renderRemoteSelections();
  };

  private restoreSelections(): void {
    // Kept for the rest of the group: an observer's own transaction may move the text again.
    const saved = this.savedSelections;
    if (!saved || !this.isActive()) return;
    const selections: monaco.Selection[] = [];
    for (const relative of saved) {
      const offsets = toTextSelection(this.ytext, relative);
      if (!offsets) continue;
      const anchor = this.model.getPositionAt(offsets.anchor);
      const head = this.model.getPositionAt(offsets.head);
      selections.push(new monaco.Selection(anchor.lineNumber, anchor.column, head.lineNumber, head.column));
    }
    // Setting equal selections would still close the suggest widget and snippet mode.
    if (
      selections.length > 0 &&
      !monaco.Selection.selectionsArrEqual(selections, this.editor.getSelections() ?? [])
    ) {
      this.editor.setSelections(selections);
    }
  }

  private readonly applyLocal = (event: monaco.editor.IModelContentChangedEvent) => {
    if (this.isApplyingRemote) return;
    if (event.isEolChange) {
      // The change event of an EOL switch rewrites the whole text: never send it.
      if (event.eol !== "\n") this.model.setEOL(monaco.editor.EndOfLineSequence.LF);
      return;
    }
    const problem = sizeProblem(this.ytext, event.changes);
    if (problem) {
      // The Y.Text still holds the text before the change: the model goes back to it.
      const before = this.ytext.toString();
      this.isApplyingRemote = true;
      try {
        this.model.applyEdits(
          revertEdits(before, event.changes).map(({ start, end, text }) => ({
            range: offsetRange(this.model, start, end),
            text,
          })),
        );
      } finally {
        this.isApplyingRemote = false;
      }
      this.onRefused(problem);
      return;
    }
    this.isApplyingLocal = true;
    try {
      this.doc.transact(() => writeChanges(this.ytext, event.changes), this);
    } finally {
      this.isApplyingLocal = false;
    }
  };

  private publishSelection(): void {
    if (!this.awareness || this.isApplyingRemote || !this.isActive()) return;
    const state = this.awareness.getLocalState();
    const selection = this.editor.getSelection();
    if (!state || !selection) return;
    const relative = toRelativeSelection(this.ytext, {
      anchor: this.model.getOffsetAt(selection.getSelectionStart()),
      head: this.model.getOffsetAt(selection.getPosition()),
    });
    const json = toSelectionJSON(relative);
    // A remote edit usually leaves our caret on the same character: nothing to send.
    if (state.selection === this.published && JSON.stringify(json) === JSON.stringify(this.published)) return;
    this.published = json;
    this.awareness.setLocalStateField("selection", json);
  }

  private readonly renderRemoteSelections = () => {
    if (!this.awareness || this.isDestroyed || this.model.isDisposed()) return;
    const decorations: monaco.editor.IModelDeltaDecoration[] = [];
    for (const [clientId, state] of this.awareness.getStates()) {
      if (clientId === this.doc.clientID) continue;
      const relative = readSelectionJSON(state.selection);
      const offsets = relative && toTextSelection(this.ytext, relative);
      if (offsets) decorations.push(remoteSelection(clientId, offsets.anchor, offsets.head, this.model));
    }
    // In the model, not the editor: each file keeps its own while another is shown.
    this.remoteDecorations = this.model.deltaDecorations(this.remoteDecorations, decorations);
  };
}

/** Applies a Y.Text delta to the model as one batch in pre-change offsets (one change for Monaco). */
export function applyDelta(model: Model, delta: Y.YTextEvent["delta"]): void {
  model.applyEdits(
    toEdits(delta).map(({ start, end, text }) => ({ range: offsetRange(model, start, end), text })),
  );
}

/** The range between two offsets of a model. */
function offsetRange(model: Model, start: number, end: number): monaco.Range {
  const from = model.getPositionAt(start);
  const to = model.getPositionAt(end);
  return new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column);
}

/** Writes a model's content changes (offsets all from before them) into its Y.Text; call within a transaction. */
export function writeChanges(ytext: Y.Text, changes: readonly monaco.editor.IModelContentChange[]): void {
  // Apply from the end so that none shifts another.
  const sorted = [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset);
  for (const change of sorted) {
    if (change.rangeLength > 0) ytext.delete(change.rangeOffset, change.rangeLength);
    if (change.text) ytext.insert(change.rangeOffset, change.text);
  }
}

/** A Y.Text delta as replacements in the old text's offsets, neighbours merged into one. */
function toEdits(delta: Y.YTextEvent["delta"]): Edit[] {
  const edits: Edit[] = [];
  let index = 0;
  for (const op of delta) {
    if (op.retain !== undefined) {
      index += op.retain;
      continue;
    }
    const last = edits.at(-1);
    const isAdjacent = last !== undefined && last.end === index;
    if (typeof op.insert === "string") {
      if (isAdjacent) last.text += op.insert;
      else edits.push({ start: index, end: index, text: op.insert });
    } else if (op.delete !== undefined) {
      if (isAdjacent) last.end += op.delete;
      else edits.push({ start: index, end: index + op.delete, text: "" });
      index += op.delete;
    }
  }
  return edits;
}

function remoteSelection(
  clientId: number,
  anchor: number,
  head: number,
  model: Model,
): monaco.editor.IModelDeltaDecoration {
  const start = model.getPositionAt(Math.min(anchor, head));
  const end = model.getPositionAt(Math.max(anchor, head));
  // The caret is drawn at the head's side of the range.
  const caret = `yRemoteSelectionHead yRemoteSelectionHead-${clientId}`;
  const isForward = anchor < head;
  return {
    range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
    options: {
      className: `yRemoteSelection yRemoteSelection-${clientId}`,
      afterContentClassName: isForward ? caret : null,
      beforeContentClassName: isForward ? null : caret,
    },
  };
}
