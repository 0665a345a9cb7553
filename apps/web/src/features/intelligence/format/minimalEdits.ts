import diff from "fast-diff";
import type * as Y from "yjs";

/** One replacement, in offsets of the text before any of them. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The character runs that turn `before` into `after`, as replacements in `before`'s offsets,
 * in order and never touching each other. Every character outside them is kept as it is, so
 * a caret (a Yjs relative position) on one of those characters stays on it.
 */
export function minimalEdits(before: string, after: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let offset = 0;
  for (const [op, text] of diff(before, after)) {
    if (op === diff.EQUAL) {
      offset += text.length;
      continue;
    }
    const last = edits.at(-1);
    // A delete next to an insert is one replacement.
    const edit = last && last.end === offset ? last : { start: offset, end: offset, text: "" };
    if (edit !== last) edits.push(edit);
    if (op === diff.DELETE) {
      edit.end += text.length;
      offset += text.length;
    } else {
      edit.text += text;
    }
  }
  return edits;
}

/** Applies replacements in the text's offsets before them; call within a transaction. */
export function writeEdits(ytext: Y.Text, edits: readonly TextEdit[]): void {
  // From the end, so that no edit shifts another's offsets.
  for (let i = edits.length - 1; i >= 0; i--) {
    const edit = edits[i];
    if (!edit) continue;
    if (edit.end > edit.start) ytext.delete(edit.start, edit.end - edit.start);
    if (edit.text) ytext.insert(edit.start, edit.text);
  }
}
