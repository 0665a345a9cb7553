import type * as Y from "yjs";
import { minimalEdits, writeEdits } from "./minimalEdits";

/**
 * The origin of Format Document's shared edit. Each tab's undo tracks it beside its binding,
 * so it is undone like the person's own typing. It is not the binding itself: the binding
 * skips its own origin, taking the edit for one its model already holds, while this one must
 * reach the model (and restores the formatter's caret by relative position, as for a remote
 * edit).
 */
export const FORMAT_ORIGIN = { name: "Format Document" } as const;

/**
 * Turns the file's text from `before` into `formatted` with only the character runs that
 * differ, in one transaction: other people's carets outside those runs stay on their
 * characters, and `undo` takes it back as one step. Answers false, changing nothing, when the
 * text is no longer `before` (someone typed while the formatter ran).
 */
export function applyFormat(ytext: Y.Text, undo: Y.UndoManager, before: string, formatted: string): boolean {
  const doc = ytext.doc;
  if (!doc || ytext.toString() !== before) return false;
  const edits = minimalEdits(before, formatted);
  if (edits.length === 0) return true;
  undo.trackedOrigins.add(FORMAT_ORIGIN);
  // Its own step: not merged with the typing just before it, nor with the typing after it.
  undo.stopCapturing();
  doc.transact(() => writeEdits(ytext, edits), FORMAT_ORIGIN);
  undo.stopCapturing();
  return true;
}
