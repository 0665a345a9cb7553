import type * as Y from "yjs";

/** One replacement in a file, in offsets of its text before the edit. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** The edits of one file's shared text. */
export interface FileEdits {
  ytext: Y.Text;
  edits: readonly TextEdit[];
}

/**
 * Applies edits to several files as one Yjs transaction: peers receive one update and never
 * see half a rename. With `undo` (the Y.UndoManager of the file the person edits from), the
 * whole edit is one undo step of theirs, every file included: it is tracked under an origin
 * of its own, with the other files added to that manager's scope, and kept apart from the
 * typing before and after it. Every binding and mirror sees a foreign origin, so each writes
 * the change into its own model. Throws, changing nothing, when two edits of a file overlap.
 */
export function applySharedEdit(doc: Y.Doc, files: readonly FileEdits[], undo?: Y.UndoManager): void {
  const sorted = files.map(({ ytext, edits }) => ({ ytext, edits: sortedFromEnd(edits, ytext.length) }));
  const origin = { name: "shared edit" };
  if (undo) {
    undo.stopCapturing();
    undo.addToScope(files.map((file) => file.ytext));
    undo.trackedOrigins.add(origin);
  }
  try {
    doc.transact(() => {
      for (const { ytext, edits } of sorted) {
        for (const edit of edits) {
          if (edit.end > edit.start) ytext.delete(edit.start, edit.end - edit.start);
          if (edit.text) ytext.insert(edit.start, edit.text);
        }
      }
    }, origin);
  } finally {
    if (undo) {
      undo.trackedOrigins.delete(origin);
      undo.stopCapturing();
    }
  }
}

/** The edits from the last to the first, so none shifts another; refuses overlaps and out of range. */
function sortedFromEnd(edits: readonly TextEdit[], length: number): TextEdit[] {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let limit = length;
  for (const edit of sorted) {
    if (edit.start < 0 || edit.end < edit.start || edit.end > limit) {
      throw new Error("The edits overlap or fall outside the file");
    }
    limit = edit.start;
  }
  return sorted;
}
