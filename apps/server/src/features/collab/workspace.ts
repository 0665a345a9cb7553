import { randomBytes } from "node:crypto";
import {
  filesMap,
  foldersMap,
  LEGACY_FILES,
  listWorkspace,
  parentFolders,
  type WorkspaceEntry,
  type WorkspaceListing,
} from "@ensemble/collab";
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_MAIN_FILES,
  type Language,
  STARTER_CODE,
  STARTER_FOLDERS,
  WORKSPACE_LIMITS,
  WORKSPACE_MESSAGES,
} from "@ensemble/protocol";
import type * as Y from "yjs";
import { DomainError } from "../../errors";
import type { GuardedWorkspace } from "./updateGuard";

/** Origin of the server's own workspace changes (file operations, seeding, migration). */
export const WORKSPACE_ORIGIN = Symbol("workspace");

/** A deleted file to restore: its id, its path, and the size of the text that will follow. */
export interface RestoredFile extends WorkspaceEntry {
  bytes: number;
}

/** A file of the workspace with its text. */
export interface WorkspaceFile {
  path: string;
  content: string;
}

type RootType = Y.Doc["share"] extends Map<string, infer T> ? T : never;

const fold = (path: string) => path.toLowerCase();
const isUnder = (path: string, folder: string) => path.startsWith(`${folder}/`);

/**
 * The files and folders of one session's document, changed only here. Every operation
 * checks its paths against what exists (case-insensitively: the workspace must check out on
 * any file system) and the limits, then changes the document in one transaction.
 */
export class Workspace implements GuardedWorkspace {
  private readonly files: Y.Map<string>;
  private readonly folders: Y.Map<boolean>;
  /** Every id that ever named a file: late edits to a deleted file's text stay harmless. */
  private readonly fileIds = new Set<string>();
  /** UTF-8 size of each file text, dropped when the text changes. */
  private readonly sizes = new Map<string, number>();
  /** Length (UTF-16 units) of each file text and their sum, kept up to date on every change. */
  private readonly lengths = new Map<string, number>();
  private totalLength = 0;
  private roots = new Map<RootType, string>();

  constructor(private readonly doc: Y.Doc) {
    this.files = filesMap(doc);
    this.folders = foldersMap(doc);
    for (const id of this.files._map.keys()) this.fileIds.add(id);
    for (const id of this.fileIds) this.measure(id);
    doc.on("afterTransaction", (transaction: Y.Transaction) => {
      for (const type of transaction.changed.keys()) {
        const name = this.roots.get(type) ?? this.rootName(type);
        if (name === undefined) continue;
        this.sizes.delete(name);
        if (this.fileIds.has(name)) this.measure(name);
      }
    });
  }

  /** Keeps the length of one file text and the workspace's sum current. */
  private measure(id: string) {
    const length = this.doc.getText(id).length;
    this.totalLength += length - (this.lengths.get(id) ?? 0);
    this.lengths.set(id, length);
  }

  /**
   * Gives a document its workspace the first time it is opened: a new one gets the spec's
   * starter tree, one stored before the workspace model gets its two texts registered as
   * files (every character kept). Returns whether it changed anything.
   */
  ensureInitialised(): boolean {
    if (this.files.size > 0 || this.files._map.size > 0) return false;
    this.doc.transact(() => {
      const legacy = Object.keys(LEGACY_FILES).filter((name) => this.doc.share.has(name));
      if (legacy.length > 0) {
        for (const name of legacy) this.register(name, LEGACY_FILES[name] as string);
      } else {
        this.register(newFileId(), LANGUAGE_MAIN_FILES[DEFAULT_LANGUAGE], STARTER_CODE[DEFAULT_LANGUAGE]);
      }
      for (const folder of STARTER_FOLDERS) this.folders.set(folder, true);
    }, WORKSPACE_ORIGIN);
    return true;
  }

  list(): WorkspaceListing {
    return listWorkspace(this.doc);
  }

  /** Every file with its text, as everyone sees it now. */
  read(): WorkspaceFile[] {
    return this.list().files.map(({ id, path }) => ({ path, content: this.doc.getText(id).toString() }));
  }

  isFileText(name: string): boolean {
    return this.fileIds.has(name);
  }

  /**
   * Creates a file. A browser may name its id (a file made offline, whose text it may already
   * hold): taken only if it never named anything in the document; the same create again (its
   * answer was lost) answers as the first did.
   */
  createFile(path: string, rawContent = "", wantedId?: string): string {
    // One line ending everywhere: editors map offsets, and \r\n would count twice.
    const content = rawContent.replace(/\r\n?/g, "\n");
    if (wantedId !== undefined && this.fileIds.has(wantedId)) {
      if (this.files.get(wantedId) === path) return path;
      throw new DomainError("conflict", WORKSPACE_MESSAGES.idTaken);
    }
    if (wantedId !== undefined && this.doc.share.has(wantedId)) {
      throw new DomainError("conflict", WORKSPACE_MESSAGES.idTaken);
    }
    this.assertFree(path);
    if (this.list().files.length >= WORKSPACE_LIMITS.maxFiles) {
      throw new DomainError("limit", WORKSPACE_MESSAGES.tooManyFiles);
    }
    const id = wantedId ?? newFileId();
    const problem = this.sizeProblem(new Map([[id, Buffer.byteLength(content)]]));
    if (problem) throw new DomainError("limit", problem);
    this.doc.transact(() => this.register(id, path, content), WORKSPACE_ORIGIN);
    return path;
  }

  createFolder(path: string): string {
    this.assertFree(path);
    this.doc.transact(() => this.folders.set(path, true), WORKSPACE_ORIGIN);
    return path;
  }

  /** Creates a language's main file from its starter if it is missing. */
  ensureMainFile(language: Language): void {
    const path = LANGUAGE_MAIN_FILES[language];
    if (this.list().files.some((f) => fold(f.path) === fold(path))) return;
    this.createFile(path, STARTER_CODE[language]);
  }

  /** Renames or moves a file or a folder (with everything in it). */
  rename(from: string, to: string): string {
    const { files, folders } = this.list();
    const file = files.find((f) => f.path === from);
    const isFolder = folders.includes(from);
    if (!file && !isFolder) throw new DomainError("not_found", WORKSPACE_MESSAGES.notFound(from));
    if (from === to) return to;
    if (isFolder && (to === from || isUnder(to, from))) {
      throw new DomainError("conflict", WORKSPACE_MESSAGES.intoItself);
    }
    // Only a change of case may land on a path that exists: the same entry, renamed.
    if (fold(from) !== fold(to)) this.assertFree(to);
    else this.assertParentsAreFolders(to);
    const move = (path: string) => (path === from ? to : `${to}${path.slice(from.length)}`);
    this.doc.transact(() => {
      if (file) {
        this.files.set(file.id, to);
        return;
      }
      for (const f of files) if (isUnder(f.path, from)) this.files.set(f.id, move(f.path));
      for (const folder of [...this.folders.keys()]) {
        if (folder !== from && !isUnder(folder, from)) continue;
        this.folders.delete(folder);
        this.folders.set(move(folder), true);
      }
      // A folder that existed only through its files stays a folder after the move.
      this.folders.set(to, true);
    }, WORKSPACE_ORIGIN);
    return to;
  }

  /** Deletes a file, or a folder with everything in it. */
  delete(path: string): string {
    const { files, folders } = this.list();
    const file = files.find((f) => f.path === path);
    if (!file && !folders.includes(path))
      throw new DomainError("not_found", WORKSPACE_MESSAGES.notFound(path));
    this.doc.transact(() => {
      for (const f of files) if (f.path === path || isUnder(f.path, path)) this.unregister(f.id);
      for (const folder of [...this.folders.keys()]) {
        if (folder === path || isUnder(folder, path)) this.folders.delete(folder);
      }
    }, WORKSPACE_ORIGIN);
    return path;
  }

  /**
   * Undoes a delete: each file comes back under its own id (a file deleted before, not listed
   * now), empty, and the folders with them, all at `path` or under it. The undoer's browser
   * then writes each text back as an edit of its own; `bytes` (each text's size) is checked
   * against the limits here, so a restore whose texts could not follow changes nothing. Each
   * text keeps its Yjs history: late edits made to it since the delete are cleared. A restore
   * the workspace already shows (a replay whose answer was lost) answers as the first did.
   */
  restore(path: string, files: readonly RestoredFile[], folders: readonly string[]): string {
    const listing = this.list();
    const inside = (p: string) => p === path || isUnder(p, path);
    for (const p of [...files.map((f) => f.path), ...folders]) {
      if (!inside(p)) throw new DomainError("invalid_payload", WORKSPACE_MESSAGES.outsideRestore);
    }
    if (isRestored(listing, path, files, folders)) return path;
    const listed = new Set(listing.files.map((f) => f.id));
    const ids = new Set<string>();
    for (const { id } of files) {
      if (!this.fileIds.has(id) || listed.has(id) || ids.has(id)) {
        throw new DomainError("conflict", WORKSPACE_MESSAGES.notDeleted);
      }
      ids.add(id);
    }
    // Nothing lies at or under a free path: the restored entries need only agree with each other.
    const filePaths = files.map((f) => fold(f.path));
    const folderPaths = new Set(folders.map(fold));
    const parents = new Set(files.flatMap((f) => parentFolders(fold(f.path))));
    if (
      new Set(filePaths).size < filePaths.length ||
      filePaths.some((p) => folderPaths.has(p) || parents.has(p))
    ) {
      throw new DomainError("conflict", WORKSPACE_MESSAGES.exists(path));
    }
    this.assertFree(path);
    if (listing.files.length + files.length > WORKSPACE_LIMITS.maxFiles) {
      throw new DomainError("limit", WORKSPACE_MESSAGES.tooManyFiles);
    }
    const problem = this.sizeProblem(new Map(files.map(({ id, bytes }) => [id, bytes - this.bytesOf(id)])));
    if (problem) throw new DomainError("limit", problem);
    this.doc.transact(() => {
      for (const folder of folders) this.folders.set(folder, true);
      for (const { id, path: filePath } of files) {
        const text = this.doc.getText(id);
        text.delete(0, text.length);
        this.measure(id);
        this.files.set(id, filePath);
      }
      // A folder deleted empty, or one that held only folders, comes back as itself.
      if (files.every((f) => f.path !== path)) this.folders.set(path, true);
    }, WORKSPACE_ORIGIN);
    return path;
  }

  /** Why growing these file texts by these many bytes would break a limit, if it would. */
  sizeProblem(growth: ReadonlyMap<string, number>): string | undefined {
    if (growth.size === 0) return undefined;
    let total = 0;
    // Every check costs the same however many files there are: the sum of lengths is kept.
    let bound = this.totalLength * 3;
    for (const bytes of growth.values()) bound += Math.max(0, bytes);
    const exactTotal = bound > WORKSPACE_LIMITS.maxWorkspaceBytes;
    for (const [id, bytes] of growth) {
      const text = this.doc.getText(id);
      // UTF-8 takes at most 3 bytes per UTF-16 unit: most checks need no exact count.
      if (text.length * 3 + bytes <= WORKSPACE_LIMITS.maxFileBytes) continue;
      if (this.bytesOf(id) + bytes > WORKSPACE_LIMITS.maxFileBytes) return WORKSPACE_MESSAGES.fileTooLarge;
    }
    if (!exactTotal) return undefined;
    for (const id of this.fileIds) total += this.bytesOf(id);
    for (const bytes of growth.values()) total += bytes;
    return total > WORKSPACE_LIMITS.maxWorkspaceBytes ? WORKSPACE_MESSAGES.workspaceTooLarge : undefined;
  }

  private rootName(type: RootType): string | undefined {
    if (type._item !== null) return undefined;
    this.roots = new Map([...this.doc.share].map(([name, root]) => [root, name]));
    return this.roots.get(type);
  }

  private bytesOf(id: string): number {
    let bytes = this.sizes.get(id);
    if (bytes === undefined) {
      bytes = Buffer.byteLength(this.doc.getText(id).toString());
      this.sizes.set(id, bytes);
    }
    return bytes;
  }

  private register(id: string, path: string, content = "") {
    this.fileIds.add(id);
    if (content) this.doc.getText(id).insert(0, content);
    this.measure(id);
    this.files.set(id, path);
  }

  private unregister(id: string) {
    this.files.delete(id);
    // The text goes too: a deleted file holds no space (a late offline edit may add a little).
    const text = this.doc.getText(id);
    text.delete(0, text.length);
  }

  /** Refuses a path that exists (as a file or a folder, in any case) or lies under a file. */
  private assertFree(path: string) {
    const { files, folders } = this.list();
    const wanted = fold(path);
    if (files.some((f) => fold(f.path) === wanted) || folders.some((f) => fold(f) === wanted)) {
      throw new DomainError("conflict", WORKSPACE_MESSAGES.exists(path));
    }
    this.assertParentsAreFolders(path);
  }

  /** Every parent of `path` must be a folder (not a file) spelled as it exists. */
  private assertParentsAreFolders(path: string) {
    const { files, folders } = this.list();
    const fileSet = new Set(files.map((f) => fold(f.path)));
    const folderSpelling = new Map(folders.map((f) => [fold(f), f]));
    for (const parent of parentFolders(path)) {
      if (fileSet.has(fold(parent))) throw new DomainError("conflict", WORKSPACE_MESSAGES.underFile(parent));
      const existing = folderSpelling.get(fold(parent));
      if (existing !== undefined && existing !== parent) {
        throw new DomainError("conflict", WORKSPACE_MESSAGES.exists(existing));
      }
    }
  }
}

/**
 * Whether the listing already shows this restore: every file listed under its id at its path,
 * and every folder (the restored path too, when no file lies there).
 */
function isRestored(
  listing: WorkspaceListing,
  path: string,
  files: readonly WorkspaceEntry[],
  folders: readonly string[],
): boolean {
  const listed = new Map(listing.files.map((f) => [f.id, f.path]));
  const existing = new Set(listing.folders);
  const wanted = files.some((f) => f.path === path) ? folders : [...folders, path];
  return files.every((f) => listed.get(f.id) === f.path) && wanted.every((f) => existing.has(f));
}

/** A new file's id: also the name of its root text, never reused. */
function newFileId(): string {
  return `f-${randomBytes(12).toString("base64url")}`;
}
