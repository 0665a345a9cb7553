import { applyPatch, diffChars, structuredPatch } from "diff";
import type * as Y from "yjs";
import { DomainError } from "../../errors";
import type { Workspace } from "./workspace";

/** What happened to files that changed in the live workspace while git rewrote the tree. */
export interface TreeApplied {
  /** Edited during the operation and merged with the new version. */
  merged: string[];
  /** Edited during the operation in a way that does not merge: the edit is kept as it is. */
  kept: string[];
  /** Could not be created (a limit or a clash), with the reason. */
  refused: { path: string; message: string }[];
}

/** A diff larger than this many edits is applied as one replacement of the changed middle. */
const MAX_EDIT_LENGTH = 20_000;

/**
 * Turns `from` into `to` inside a Y.Text with the fewest edits a character diff finds, so
 * carets and other people's relative positions outside the changed runs stay where they are.
 */
export function applyTextDiff(text: Y.Text, from: string, to: string): void {
  const changes = diffChars(from, to, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) {
    let start = 0;
    while (start < from.length && start < to.length && from[start] === to[start]) start++;
    let end = 0;
    while (
      end < from.length - start &&
      end < to.length - start &&
      from[from.length - 1 - end] === to[to.length - 1 - end]
    )
      end++;
    text.delete(start, from.length - start - end);
    text.insert(start, to.slice(start, to.length - end));
    return;
  }
  let index = 0;
  for (const change of changes) {
    if (change.removed) text.delete(index, change.value.length);
    else if (change.added) {
      text.insert(index, change.value);
      index += change.value.length;
    } else index += change.value.length;
  }
}

/**
 * Brings the live workspace from `base` (the files as git was given them) to `target` (the
 * tree git left), as edits in one transaction. A file nobody touched meanwhile becomes the
 * target; a file someone edited meanwhile gets the target's change merged into their text
 * (a patch of base → target), or keeps their text when that does not apply. Nothing typed is
 * lost.
 */
export function applyTree(
  doc: Y.Doc,
  workspace: Workspace,
  base: ReadonlyMap<string, string>,
  target: ReadonlyMap<string, string>,
): TreeApplied {
  const result: TreeApplied = { merged: [], kept: [], refused: [] };
  doc.transact(() => {
    const live = new Map(workspace.list().files.map((f) => [f.path, f.id]));
    for (const [path, wanted] of target) {
      const id = live.get(path);
      if (id === undefined) {
        // New on the target; one that existed before and was deleted meanwhile stays deleted.
        if (base.has(path)) continue;
        try {
          workspace.createFile(path, wanted);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          result.refused.push({ path, message: error.message });
        }
        continue;
      }
      const text = doc.getText(id);
      const now = text.toString();
      const before = base.get(path) ?? "";
      if (now === wanted) continue;
      if (now === before) {
        applyTextDiff(text, now, wanted);
        continue;
      }
      const merged = applyPatch(now, structuredPatch(path, path, before, wanted, undefined, undefined));
      if (merged === false) {
        result.kept.push(path);
      } else {
        applyTextDiff(text, now, merged);
        result.merged.push(path);
      }
    }
    for (const [path] of live) {
      if (target.has(path)) continue;
      const before = base.get(path);
      const id = live.get(path) as string;
      // Gone on the target: deleted unless someone created or edited it meanwhile.
      if (before !== undefined && doc.getText(id).toString() === before) workspace.delete(path);
      else if (before !== undefined) result.kept.push(path);
    }
  });
  return result;
}

/**
 * Brings the workspace's folders to `folders` (a restored moment's, empty ones included): a
 * folder missing is created, a folder not wanted is deleted once nothing is left in it (a file
 * someone kept, or a wanted folder, keeps it). Run after `applyTree`, in its change.
 */
export function applyFolders(workspace: Workspace, folders: readonly string[], result: TreeApplied): void {
  const wanted = new Set(folders);
  const { files, folders: live } = workspace.list();
  const isUnder = (path: string, folder: string) => path.startsWith(`${folder}/`);
  for (const folder of live) {
    if (wanted.has(folder)) continue;
    if (files.some((f) => isUnder(f.path, folder)) || folders.some((f) => isUnder(f, folder))) continue;
    // Deleting a parent took its children already.
    if (workspace.list().folders.includes(folder)) workspace.delete(folder);
  }
  for (const folder of folders) {
    if (workspace.list().folders.includes(folder)) continue;
    try {
      workspace.createFolder(folder);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      result.refused.push({ path: folder, message: error.message });
    }
  }
}
