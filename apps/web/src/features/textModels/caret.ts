// The caret rule (DESIGN.md decision 12). Yjs's default association attaches a position to
// the character on its right, so a remote insert at exactly our caret lands before that
// character and drags the caret past someone else's text: the next keystroke then joins
// their word. Attaching a collapsed caret to the character on its LEFT (our own last
// keystroke) keeps it with our run, and a remote insert at the same spot goes after it.
import * as Y from "yjs";

/** A selection as offsets into a Y.Text: `anchor` is where it started, `head` is the caret. */
export interface TextSelection {
  anchor: number;
  head: number;
}

/** A selection as Yjs relative positions, which follow the text through remote edits. */
export interface RelativeSelection {
  anchor: Y.RelativePosition;
  head: Y.RelativePosition;
}

/** The selection as it goes into awareness (`selection: { anchor, head }`, as y-monaco sends it). */
export interface SelectionJSON {
  anchor: Record<string, unknown>;
  head: Record<string, unknown>;
}

const LEFT = -1;
const RIGHT = 0;

/**
 * Saves a selection so that, once restored, a collapsed caret stays right after its owner's
 * last character and a non-empty selection covers exactly the characters it covered: text
 * inserted by others at either edge stays outside it.
 */
export function toRelativeSelection(ytext: Y.Text, { anchor, head }: TextSelection): RelativeSelection {
  if (anchor === head) {
    const caret = Y.createRelativePositionFromTypeIndex(ytext, head, LEFT);
    return { anchor: caret, head: caret };
  }
  const isForward = anchor < head;
  const start = Y.createRelativePositionFromTypeIndex(ytext, Math.min(anchor, head), RIGHT);
  const end = Y.createRelativePositionFromTypeIndex(ytext, Math.max(anchor, head), LEFT);
  return isForward ? { anchor: start, head: end } : { anchor: end, head: start };
}

/** Resolves a saved selection to offsets in `ytext`, or null when it points into another type. */
export function toTextSelection(ytext: Y.Text, selection: RelativeSelection): TextSelection | null {
  const doc = ytext.doc;
  if (!doc) return null;
  const anchor = Y.createAbsolutePositionFromRelativePosition(selection.anchor, doc);
  const head = Y.createAbsolutePositionFromRelativePosition(selection.head, doc);
  if (!anchor || !head || anchor.type !== ytext || head.type !== ytext) return null;
  return { anchor: anchor.index, head: head.index };
}

/** The awareness form of a saved selection: plain JSON that `readSelectionJSON` reads back. */
export function toSelectionJSON(selection: RelativeSelection): SelectionJSON {
  return {
    anchor: Y.relativePositionToJSON(selection.anchor),
    head: Y.relativePositionToJSON(selection.head),
  };
}

/** Reads a peer's awareness `selection` defensively: null unless both ends are relative positions. */
export function readSelectionJSON(value: unknown): RelativeSelection | null {
  if (!isRecord(value) || !isRelativePositionJSON(value.anchor) || !isRelativePositionJSON(value.head)) {
    return null;
  }
  return {
    anchor: Y.createRelativePositionFromJSON(value.anchor),
    head: Y.createRelativePositionFromJSON(value.head),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isId(value: unknown): boolean {
  return isRecord(value) && Number.isInteger(value.client) && Number.isInteger(value.clock);
}

// Another peer's input: Yjs would throw on a malformed id, or follow one that names no struct.
function isRelativePositionJSON(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const { type, tname, item, assoc } = value;
  return (
    (type === undefined || type === null || isId(type)) &&
    (tname === undefined || tname === null || typeof tname === "string") &&
    (item === undefined || item === null || isId(item)) &&
    (assoc === undefined || assoc === null || Number.isInteger(assoc))
  );
}
