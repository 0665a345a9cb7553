import fs from "node:fs/promises";
import path from "node:path";

const LOCK_DIR = "/run/ensemble-runner";
const RANGE = 4096;

/**
 * Claims `count` host uids from `base` up, one per runner slot, that no other server process
 * on this machine holds: RLIMIT_NPROC counts every process of a real uid system-wide, so two
 * runs (or two servers) sharing a uid would share one process budget. A claim is a lock file
 * naming our pid; a file whose pid is gone is taken over.
 */
export async function claimUids(
  base: number,
  count: number,
): Promise<{ uids: number[]; release(): Promise<void> }> {
  await fs.mkdir(LOCK_DIR, { recursive: true, mode: 0o700 });
  const uids: number[] = [];
  for (let uid = base; uid < base + RANGE && uids.length < count; uid += 1) {
    if (await tryLock(uid)) uids.push(uid);
  }
  if (uids.length < count) throw new Error(`no free sandbox uid in ${base}..${base + RANGE - 1}`);
  return {
    uids,
    async release() {
      for (const uid of uids) await fs.rm(lockFile(uid), { force: true });
    },
  };
}

const lockFile = (uid: number) => path.join(LOCK_DIR, `uid-${uid}.lock`);

async function tryLock(uid: number): Promise<boolean> {
  const file = lockFile(uid);
  try {
    await fs.writeFile(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const holder = Number((await fs.readFile(file, "utf8").catch(() => "")).trim());
  if (holder > 0 && isAlive(holder)) return false;
  // A dead holder's claim: remove it and race for it like anyone else.
  await fs.rm(file, { force: true });
  try {
    await fs.writeFile(file, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

/** True while a process with this pid exists (EPERM: it exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
