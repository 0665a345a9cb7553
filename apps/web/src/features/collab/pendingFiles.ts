import { parentFolders, type WorkspaceListing } from "@ensemble/collab";
import { FileIdSchema, WORKSPACE_LIMITS, WORKSPACE_MESSAGES } from "@ensemble/protocol";
import { z } from "zod";

const PathSchema = z.string().max(4 * WORKSPACE_LIMITS.maxPathBytes);

/** A deleted file as it was: enough to bring it back under its id with its text. */
export const DeletedFileSchema = z.object({ id: FileIdSchema, path: PathSchema, content: z.string() });
export type DeletedFile = z.infer<typeof DeletedFileSchema>;

/** What a delete removed (files with their text, explicit folders), so that it can be undone. */
export const DeletionSchema = z.object({
  path: PathSchema,
  files: z.array(DeletedFileSchema),
  folders: z.array(PathSchema),
});
export type Deletion = z.infer<typeof DeletionSchema>;

/**
 * A file operation made while offline, kept (in order, in localStorage) until the next join
 * replays it on the server. A new file carries the id its text already lives under.
 */
export const PendingOpSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("create"), kind: z.literal("file"), id: FileIdSchema, path: PathSchema }),
  z.object({ op: z.literal("create"), kind: z.literal("folder"), path: PathSchema }),
  z.object({ op: z.literal("rename"), from: PathSchema, to: PathSchema }),
  z.object({ op: z.literal("delete"), path: PathSchema }),
  z.object({ op: z.literal("restore"), deletion: DeletionSchema }),
]);
export type PendingOp = z.infer<typeof PendingOpSchema>;

const fold = (path: string) => path.toLowerCase();
const isAtOrUnder = (path: string, root: string) => path === root || path.startsWith(`${root}/`);
const moved = (path: string, from: string, to: string) =>
  isAtOrUnder(path, from) ? `${to}${path.slice(from.length)}` : path;

/**
 * The workspace as it will be once the pending operations reach the server: each applied to
 * the listing in order. Applying one the document already shows changes nothing, so the
 * operations just replayed can stay until the document catches up.
 */
export function applyPending(listing: WorkspaceListing, ops: readonly PendingOp[]): WorkspaceListing {
  let files = [...listing.files];
  const folders = new Set(listing.folders);
  const addFolders = (path: string, withSelf: boolean) => {
    for (const folder of parentFolders(path)) folders.add(folder);
    if (withSelf) folders.add(path);
  };
  for (const op of ops) {
    if (op.op === "create") {
      if (op.kind === "folder") addFolders(op.path, true);
      else if (!files.some((f) => f.id === op.id)) {
        files.push({ id: op.id, path: op.path });
        addFolders(op.path, false);
      }
    } else if (op.op === "rename") {
      if (!files.some((f) => f.path === op.from) && !folders.has(op.from)) continue;
      files = files.map((f) => ({ id: f.id, path: moved(f.path, op.from, op.to) }));
      for (const folder of [...folders]) {
        if (!isAtOrUnder(folder, op.from)) continue;
        folders.delete(folder);
        folders.add(moved(folder, op.from, op.to));
      }
      addFolders(op.to, false);
    } else if (op.op === "delete") {
      files = files.filter((f) => !isAtOrUnder(f.path, op.path));
      for (const folder of [...folders]) if (isAtOrUnder(folder, op.path)) folders.delete(folder);
    } else {
      const { deletion } = op;
      for (const file of deletion.files) {
        if (files.some((f) => f.id === file.id)) continue;
        files.push({ id: file.id, path: file.path });
        addFolders(file.path, false);
      }
      for (const folder of deletion.folders) addFolders(folder, true);
      if (deletion.files.every((f) => f.path !== deletion.path)) addFolders(deletion.path, true);
    }
  }
  files.sort((a, b) => compare(a.path, b.path));
  return { files, folders: [...folders].sort(compare) };
}

/**
 * Why an operation cannot be queued against this listing, as the server would say it (the
 * server checks again when it is replayed), or undefined.
 */
export function pendingProblem(listing: WorkspaceListing, op: PendingOp): string | undefined {
  const exists = (path: string) =>
    listing.files.some((f) => fold(f.path) === fold(path)) ||
    listing.folders.some((f) => fold(f) === fold(path));
  const isFile = (path: string) => listing.files.some((f) => fold(f.path) === fold(path));
  const parentProblem = (path: string) => {
    const file = parentFolders(path).find(isFile);
    return file === undefined ? undefined : WORKSPACE_MESSAGES.underFile(file);
  };
  if (op.op === "create") {
    if (exists(op.path)) return WORKSPACE_MESSAGES.exists(op.path);
    if (op.kind === "file" && listing.files.length >= WORKSPACE_LIMITS.maxFiles)
      return WORKSPACE_MESSAGES.tooManyFiles;
    return parentProblem(op.path);
  }
  if (op.op === "rename") {
    if (!exists(op.from)) return WORKSPACE_MESSAGES.notFound(op.from);
    if (isAtOrUnder(op.to, op.from) && op.to !== op.from && listing.folders.includes(op.from))
      return WORKSPACE_MESSAGES.intoItself;
    if (fold(op.from) !== fold(op.to) && exists(op.to)) return WORKSPACE_MESSAGES.exists(op.to);
    return parentProblem(op.to);
  }
  if (op.op === "delete") return exists(op.path) ? undefined : WORKSPACE_MESSAGES.notFound(op.path);
  return exists(op.deletion.path) ? WORKSPACE_MESSAGES.exists(op.deletion.path) : undefined;
}

/** `name (2).ext` for `name.ext`: where a file created offline goes when its path was taken meanwhile. */
export function alternativePath(path: string, attempt: number): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  const cut = dot > slash + 1 ? dot : path.length;
  return `${path.slice(0, cut)} (${attempt})${path.slice(cut)}`;
}

/** Rewrites the paths of queued operations after a file created offline landed elsewhere. */
export function remapPending(op: PendingOp, from: string, to: string): PendingOp {
  switch (op.op) {
    case "create":
      return { ...op, path: moved(op.path, from, to) };
    case "rename":
      return { ...op, from: moved(op.from, from, to), to: moved(op.to, from, to) };
    case "delete":
      return { ...op, path: moved(op.path, from, to) };
    case "restore":
      return op;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
