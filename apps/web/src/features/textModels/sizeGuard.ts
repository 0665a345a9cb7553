import { utf8Bytes, WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import type * as Y from "yjs";

/** One change of a model's content, in offsets of the text before it (Monaco's shape). */
export interface TextChange {
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

/**
 * Why these changes would push the file past its size limit, or undefined. The server
 * refuses such an update whole (and the browser would then reopen the session from the
 * server, dropping what was typed after it), so the editor refuses the change itself.
 * Cheap while the file is far from the limit: UTF-8 takes at most 3 bytes per UTF-16 unit.
 * One change may be as large as the file's limit: an update over a socket message goes in
 * parts (`splitSyncMessage`).
 */
export function sizeProblem(ytext: Y.Text, changes: readonly TextChange[]): string | undefined {
  let inserted = 0;
  let removedUnits = 0;
  for (const change of changes) {
    inserted += utf8Bytes(change.text);
    removedUnits += change.rangeLength;
  }
  if (inserted === 0) return undefined;
  if ((ytext.length - removedUnits) * 3 + inserted <= WORKSPACE_LIMITS.maxFileBytes) return undefined;
  const before = ytext.toString();
  let bytes = utf8Bytes(before) + inserted;
  for (const change of changes)
    bytes -= utf8Bytes(before.slice(change.rangeOffset, change.rangeOffset + change.rangeLength));
  return bytes > WORKSPACE_LIMITS.maxFileBytes ? WORKSPACE_MESSAGES.fileTooLarge : undefined;
}

/**
 * The edits that take a model back from after `changes` to `before` (offsets of the text
 * after them), for a change the editor refuses.
 */
export function revertEdits(
  before: string,
  changes: readonly TextChange[],
): { start: number; end: number; text: string }[] {
  const sorted = [...changes].sort((a, b) => a.rangeOffset - b.rangeOffset);
  let shift = 0;
  return sorted.map((change) => {
    const start = change.rangeOffset + shift;
    shift += change.text.length - change.rangeLength;
    return {
      start,
      end: start + change.text.length,
      text: before.slice(change.rangeOffset, change.rangeOffset + change.rangeLength),
    };
  });
}
