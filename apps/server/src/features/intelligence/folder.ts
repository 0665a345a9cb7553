import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFileNameProblem } from "@ensemble/protocol";

const PREFIX = "ensemble-lsp-";

/** Removes the folders left by servers of ours that were killed outright (their pid is gone). */
export async function sweepStaleFolders(): Promise<void> {
  const entries = await fs.readdir(os.tmpdir(), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const pid = Number(entry.name.match(/^ensemble-lsp-(\d+)-/)?.[1]);
    if (!entry.isDirectory() || !pid || isAlive(pid)) continue;
    await fs.rm(path.join(os.tmpdir(), entry.name), { recursive: true, force: true }).catch(() => {});
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The host folder a server sees as its workspace (read-only inside its sandbox): the
 * session's files it serves, as our server last fed them. Only our server writes here, so
 * nothing in it can be a link. Owned by the slot's uid when we are root, private otherwise.
 */
export class HostFolder {
  private constructor(readonly dir: string) {}

  static async create(uid: number | undefined): Promise<HostFolder> {
    // Named with our pid, so a later server can tell the folders of one that was killed.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
    if (uid !== undefined) await fs.chown(dir, uid, uid);
    return new HostFolder(dir);
  }

  /** Writes a workspace file; false (nothing written) for a path that could leave the folder. */
  async write(name: string, content: string): Promise<boolean> {
    const file = this.resolve(name);
    if (!file) return false;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    await fs.writeFile(file, content, { mode: 0o644 });
    return true;
  }

  async remove(name: string): Promise<void> {
    const file = this.resolve(name);
    if (file) await fs.rm(file, { force: true });
  }

  async destroy(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  /** The host path of a workspace path, or undefined when it is not a plain relative path. */
  private resolve(name: string): string | undefined {
    // The collab feature checked the path already; this is the last line before the disk.
    if (runFileNameProblem(name)) return undefined;
    const file = path.resolve(this.dir, name);
    return file.startsWith(`${this.dir}${path.sep}`) ? file : undefined;
  }
}
