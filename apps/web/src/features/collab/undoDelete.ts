import { type RestorePath, utf8Bytes } from "@ensemble/protocol";
import type * as Y from "yjs";
import type { DeletedFile, Deletion } from "./pendingFiles";

/**
 * Origin of the texts an undone delete puts back: a local edit, sent like typing (on the Yjs
 * lane, in parts when large), but no editor's, so no tab's Ctrl+Z takes it back.
 */
export const RESTORE_ORIGIN = Symbol("restore");

/**
 * What `restorePath` carries of a deletion: ids, paths, sizes and folders. The texts would
 * not fit one socket message (a folder may hold megabytes): `putBackTexts` sends them after.
 */
export function restoreRequest(deletion: Deletion): Omit<RestorePath, "sessionId"> {
  return {
    path: deletion.path,
    files: deletion.files.map(({ id, path, content }) => ({ id, path, bytes: utf8Bytes(content) })),
    folders: deletion.folders,
  };
}

/**
 * Writes each restored file's text back, one transaction per file (each its own update, at
 * most a file's limit): what the text holds goes, the saved content comes in as new items.
 * The server's restore cleared only the items it knew, so these survive it whichever of the
 * two reaches a document first. Call once the server has accepted the restore.
 */
export function putBackTexts(doc: Y.Doc, files: readonly DeletedFile[]): void {
  for (const { id, content } of files) {
    const text = doc.getText(id);
    doc.transact(() => {
      text.delete(0, text.length);
      text.insert(0, content);
    }, RESTORE_ORIGIN);
  }
}
