import { readdirSync, readFileSync } from "node:fs";

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

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return ""; // The process exited meanwhile.
  }
}

/** The living children of `pid`, of all its threads (any thread may have started one). */
function childrenOf(pid: number): number[] {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) =>
    read(`/proc/${pid}/task/${task}/children`).split(" ").filter(Boolean).map(Number),
  );
}

const kb = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(text)?.[1] ?? 0);

/** Reads /proc for `pid` and its descendants (the server, its database, its helper processes). */
export function treeMemory(pid: number): TreeMemory {
  const tree: number[] = [];
  for (const queue = [pid]; queue.length > 0; ) {
    const next = queue.shift() ?? pid;
    tree.push(next);
    queue.push(...childrenOf(next));
  }
  const rss = tree.map((p) => kb(read(`/proc/${p}/status`), "VmRSS"));
  const pss = tree.map((p) => kb(read(`/proc/${p}/smaps_rollup`), "Pss"));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0) / 1024;
  return { processes: tree.length, mainRssMb: (rss[0] ?? 0) / 1024, rssMb: sum(rss), pssMb: sum(pss) };
}
