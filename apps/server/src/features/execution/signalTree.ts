import fs from "node:fs/promises";

/**
 * The pids of every process below `rootPid`, read from /proc (each process's parent is the
 * fourth field of its `stat`, after the command name in parentheses, which may hold spaces).
 */
export async function descendants(rootPid: number): Promise<{ pid: number; comm: string }[]> {
  const children = new Map<number, { pid: number; comm: string }[]>();
  const names = await fs.readdir("/proc").catch(() => []);
  await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const stat = await fs.readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
        const close = stat.lastIndexOf(")");
        if (close < 0) return;
        const comm = stat.slice(stat.indexOf("(") + 1, close);
        const ppid = Number(stat.slice(close + 2).split(" ")[1]);
        const list = children.get(ppid) ?? [];
        list.push({ pid: Number(name), comm });
        children.set(ppid, list);
      }),
  );
  const found: { pid: number; comm: string }[] = [];
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/**
 * Sends `signal` to the program of a sandbox whose outer bwrap is `rootPid`: to every process
 * under it but bwrap's own (the outer one and the PID namespace's init, which would take the
 * whole sandbox down with SIGKILL instead of letting the program handle, say, SIGINT), as a
 * terminal sends Ctrl+C to its whole foreground job.
 */
export async function signalProgram(rootPid: number, signal: NodeJS.Signals): Promise<void> {
  for (const { pid, comm } of await descendants(rootPid)) {
    if (comm === "bwrap") continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}
