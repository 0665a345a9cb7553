import type * as Y from "yjs";

/**
 * How a session's project lives in its one Y.Doc:
 * - `files`: a Y.Map from a file id to the file's path;
 * - the file's text: the root Y.Text named by its id (`doc.getText(id)`), so a rename changes
 *   one map entry and never moves the text (concurrent edits, carets and undo survive it);
 * - `folders`: a Y.Map whose keys are folders that exist on their own (they may be empty).
 * Only the server writes `files` and `folders`; clients edit the texts.
 */
export const FILES_MAP = "files";
export const FOLDERS_MAP = "folders";

/**
 * Sessions stored before the workspace model kept `main.js` and `main.py` as root texts:
 * they become the files `src/main.js` and `src/main.py` under their old names as ids.
 */
export const LEGACY_FILES: Readonly<Record<string, string>> = {
  "main.js": "src/main.js",
  "main.py": "src/main.py",
};

export function filesMap(doc: Y.Doc): Y.Map<string> {
  return doc.getMap<string>(FILES_MAP);
}

export function foldersMap(doc: Y.Doc): Y.Map<boolean> {
  return doc.getMap<boolean>(FOLDERS_MAP);
}

/** One file of the workspace. */
export interface WorkspaceEntry {
  id: string;
  path: string;
}

/** The workspace's files and folders as one listing, sorted by path. */
export interface WorkspaceListing {
  files: WorkspaceEntry[];
  /** Every folder: the explicit ones and the parents of every file. */
  folders: string[];
}

/** The parent folders of a path, outermost first (`a/b/c.js` → `a`, `a/b`). */
export function parentFolders(path: string): string[] {
  const segments = path.split("/");
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join("/"));
}

/** Lists the workspace of a document. */
export function listWorkspace(doc: Y.Doc): WorkspaceListing {
  const files: WorkspaceEntry[] = [];
  const folders = new Set<string>();
  for (const [id, path] of filesMap(doc)) {
    if (typeof path !== "string") continue;
    files.push({ id, path });
    for (const folder of parentFolders(path)) folders.add(folder);
  }
  for (const folder of foldersMap(doc).keys()) {
    folders.add(folder);
    for (const parent of parentFolders(folder)) folders.add(parent);
  }
  files.sort((a, b) => compareText(a.path, b.path));
  return { files, folders: [...folders].sort(compareText) };
}

/** The id of the file at `path`, if there is one. */
export function fileIdAt(doc: Y.Doc, path: string): string | undefined {
  for (const [id, filePath] of filesMap(doc)) if (filePath === path) return id;
  return undefined;
}

/** The Y.Text of a file id. */
export function fileText(doc: Y.Doc, id: string): Y.Text {
  return doc.getText(id);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
