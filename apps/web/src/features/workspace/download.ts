import { zipSync } from "fflate";
import type { CollabSession } from "../collab/CollabSession";
import { useCollabStore } from "../collab/store";

/**
 * The workspace as a zip archive (fflate): every file with its live text, and every folder,
 * so an empty one survives the trip.
 */
export function zipWorkspace(session: CollabSession): Uint8Array {
  const { files, folders } = useCollabStore.getState();
  const encoder = new TextEncoder();
  const entries: Record<string, Uint8Array> = {};
  for (const folder of folders) entries[`${folder}/`] = new Uint8Array(0);
  for (const file of files) entries[file.path] = encoder.encode(session.fileText(file.id).toString());
  return zipSync(entries, { level: 6 });
}

/** Saves the workspace as `{name}.zip` through the browser's download. */
export function downloadWorkspace(session: CollabSession, name: string): void {
  const blob = new Blob([zipWorkspace(session) as Uint8Array<ArrayBuffer>], { type: "application/zip" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `${name}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once click() returns; the URL can go on the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
