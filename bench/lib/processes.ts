import { readdirSync, readFileSync } from "node:fs";

/** /proc/<pid>/stat's fields after the command name (field 3 of proc(5) first); [] when gone. */
function statFields(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return [];
  }
}

/** The living children of `pid`, of all its threads (any thread may have started one). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // It exited meanwhile.
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")
        .split(" ")
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

/** `pid` and every living process below it. */
export function processTree(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    found.push(next);
    queue.push(...childrenOf(next));
  }
  return found;
}

/**
 * CPU time (user + system, all threads) of `pid` and of every process below it, living or
 * ended and reaped by its parent, in ms (USER_HZ = 100). A server that moves work into a child
 * process (its database, git, a sandbox) is then charged for it all the same.
 */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, member) => {
    const fields = statFields(member);
    // utime, stime, cutime, cstime: fields 14-17 of proc(5).
    return sum + [11, 12, 13, 14].reduce((ticks, i) => ticks + Number(fields[i] ?? 0), 0) * 10;
  }, 0);
}

/** CPU time (user + system, all threads) of `pid` alone, in ms: its children are not counted. */
export function ownCpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

/** Resident memory of one process, in bytes (0 once it is gone). */
export function rssBytes(pid: number): number {
  try {
    const kb = /VmRSS:\s*(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Resident memory of the processes below `pid` (not `pid` itself), in bytes; shared pages count in each. */
export function descendantsRssBytes(pid: number): number {
  return processTree(pid)
    .slice(1)
    .reduce((sum, member) => sum + rssBytes(member), 0);
}

/**
 * Proportional resident memory of one process, in bytes (0 once it is gone): each page it
 * shares with other processes (a database's shared buffers, libraries) counts as its share.
 */
export function pssBytes(pid: number): number {
  try {
    const kb = /^Pss:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Proportional resident memory of `pid` and every process below it, in bytes: what the group holds. */
export function treePssBytes(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + pssBytes(member), 0);
}

/** Memory of a process and every process below it, in MB. */
export interface TreeMemory {
  processes: number;
  /** The launched process alone. */
  mainRssMb: number;
  /** Resident memory summed over the processes: pages they share (libraries, PostgreSQL's shared buffers) count in each. */
  rssMb: number;
  /** Proportional set size summed: each shared page split among its sharers, so the sum is what the group holds. */
  pssMb: number;
}

/** Reads /proc for `pid` and its descendants (the server, its database, its helper processes). */
export function treeMemory(pid: number): TreeMemory {
  const tree = processTree(pid);
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return {
    processes: tree.length,
    mainRssMb: mb(rssBytes(pid)),
    rssMb: mb(tree.reduce((sum, member) => sum + rssBytes(member), 0)),
    pssMb: mb(tree.reduce((sum, member) => sum + pssBytes(member), 0)),
  };
}

/** One process's memory, in MB, and what it is (its command line, cut short). */
export interface ProcessMemory {
  pid: number;
  command: string;
  rssMb: number;
  pssMb: number;
}

/** The command line of `pid` as `ps` shows it (a PostgreSQL backend's title included); "" once gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim().slice(0, 160);
  } catch {
    return "";
  }
}

/** RSS and PSS of `pid` and of every process below it, one entry each: which of them holds what. */
export function processMemories(pid: number): ProcessMemory[] {
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return processTree(pid).map((member) => ({
    pid: member,
    command: commandOf(member),
    rssMb: mb(rssBytes(member)),
    pssMb: mb(pssBytes(member)),
  }));
}
