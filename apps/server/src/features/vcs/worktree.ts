import fs from "node:fs/promises";
import path from "node:path";
import { WORKSPACE_LIMITS } from "@ensemble/protocol";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of a file the live workspace could hold, or undefined (binary, too large). */
function asWorkspaceText(bytes: Buffer): string | undefined {
  if (bytes.byteLength > WORKSPACE_LIMITS.maxFileBytes || bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A workspace file as the live document holds it. */
export interface LiveFile {
  path: string;
  content: string;
}

/**
 * Makes a repository's working tree hold exactly the live workspace, writing only what
 * changed since the last call (the last written text of each path is remembered), and
 * removing files the workspace no longer has. `.git` is never touched: the workspace's paths
 * can never name it (the collab feature refuses a `.git` segment), and it is skipped here too.
 * Files the workspace cannot hold (binary, over the size limit, or refused by it) are left
 * alone: they stay in the repository as they are, unseen by the editors.
 */
export class Worktree {
  private written = new Map<string, string>();
  /** Folders known to exist (cleared when files are removed, since empty ones are pruned). */
  private readonly folders = new Set<string>();
  private isScanned = false;

  constructor(readonly dir: string) {}

  /** Writes what changed since the last call; says whether anything did. */
  async write(files: readonly LiveFile[]): Promise<boolean> {
    if (!this.isScanned) await this.scan();
    const wanted = new Map(files.map((f) => [f.path, f.content]));
    const removed = [...this.written.keys()].filter((old) => !wanted.has(old));
    for (const old of removed) {
      await fs.rm(this.resolve(old), { force: true });
      await this.pruneEmptyParents(old);
      this.written.delete(old);
    }
    if (removed.length > 0) this.folders.clear();
    const changed = [...wanted].filter(([file, content]) => this.written.get(file) !== content);
    // Folders first (each once), then every file at the same time.
    const folders = new Set(changed.map(([file]) => path.dirname(this.resolve(file))));
    await Promise.all(
      [...folders].filter((f) => !this.folders.has(f)).map((f) => fs.mkdir(f, { recursive: true })),
    );
    for (const folder of folders) this.folders.add(folder);
    await Promise.all(changed.map(([file, content]) => this.writeFile(file, content)));
    for (const [file, content] of changed) this.written.set(file, content);
    return removed.length > 0 || changed.length > 0;
  }

  /** Writes one file; a folder git removed behind our back is made again. */
  private async writeFile(file: string, content: string): Promise<void> {
    const target = this.resolve(file);
    try {
      await fs.writeFile(target, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
  }

  /** Every text file of the working tree (after git changed it), by path. */
  async read(): Promise<Map<string, string>> {
    await this.scan();
    return new Map(this.written);
  }

  /** Leaves these files alone from now on: the workspace refused them, so they are not its to delete. */
  forget(paths: Iterable<string>): void {
    for (const file of paths) this.written.delete(file);
  }

  private async scan(): Promise<void> {
    this.written = new Map();
    this.folders.clear();
    const walk = async (folder: string) => {
      for (const entry of await fs.readdir(path.join(this.dir, folder), { withFileTypes: true })) {
        const relative = folder ? `${folder}/${entry.name}` : entry.name;
        if (relative === ".git") continue;
        if (entry.isDirectory()) await walk(relative);
        else if (entry.isFile()) {
          const text = asWorkspaceText(await fs.readFile(path.join(this.dir, relative)));
          if (text !== undefined) this.written.set(relative, text);
        }
      }
    };
    await walk("");
    this.isScanned = true;
  }

  private resolve(file: string): string {
    const target = path.resolve(this.dir, file);
    const gitDir = path.join(this.dir, ".git");
    if (
      !target.startsWith(`${this.dir}${path.sep}`) ||
      target === gitDir ||
      target.startsWith(`${gitDir}${path.sep}`)
    ) {
      throw new Error(`refusing a path outside the working tree: ${file}`);
    }
    return target;
  }

  private async pruneEmptyParents(file: string): Promise<void> {
    let folder = path.dirname(file);
    while (folder !== "." && folder !== "") {
      try {
        await fs.rmdir(path.join(this.dir, folder));
      } catch {
        return;
      }
      folder = path.dirname(folder);
    }
  }
}
