import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

/** /proc/<pid>/stat; null when the process is gone. */
function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name is in parentheses and may itself hold spaces or parentheses.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  // fields[0] is field 3 of proc(5): state; ppid is field 4, utime 14, stime 15, cutime 16,
  // cstime 17. The children's times keep the CPU of a renderer that ended (a closed context)
  // in the tree: its parent reaped it and holds its time from then on.
  const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  return { pid, ppid: Number(fields[1]), comm: text.slice(text.indexOf("(") + 1, close), ticks };
}

function allProcesses(): ProcStat[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat) => stat !== null);
}

/** `root` and every process below it, except the subtrees of `exclude`. */
export function processTree(root: number, exclude: number[] = []): ProcStat[] {
  const all = allProcesses();
  const found: ProcStat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (exclude.includes(pid)) continue;
    const stat = all.find((p) => p.pid === pid);
    if (stat) found.push(stat);
    for (const child of all) if (child.ppid === pid) queue.push(child.pid);
  }
  return found;
}

/**
 * The machine's busy time over all cores, in clock ticks (the `cpu` line of /proc/stat):
 * processes' time, and what no process is charged with (interrupts, time stolen by the host).
 */
function machineTicks() {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values;
  return { tasks: user + nice + system, unattributed: irq + softirq + steal };
}

/** CPU seconds of named groups of processes, and of the whole machine, over one window. */
export interface CpuWindow {
  seconds: number;
  /** Per group: CPU seconds used in the window, and processes seen. */
  groups: Record<string, { cpuSeconds: number; processes: number; commands: string[] }>;
  /** Every process on the machine, in CPU seconds (all cores). */
  machineCpuSeconds: number;
  /** Interrupts (loopback packets among them) and time stolen by the host, in CPU seconds. */
  unattributedCpuSeconds: number;
}

/**
 * Measures the CPU time of each group's processes over `run()` (from /proc/<pid>/stat, read
 * before and after). A process that starts inside the window counts whole; one that ends
 * inside it counts through its parent, once reaped.
 */
export async function measureCpu(
  groups: Record<string, () => ProcStat[]>,
  run: () => Promise<void>,
): Promise<CpuWindow> {
  const before = Object.fromEntries(Object.entries(groups).map(([name, list]) => [name, list()]));
  const machineBefore = machineTicks();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const machineAfter = machineTicks();
  const result: CpuWindow = {
    seconds,
    groups: {},
    machineCpuSeconds: (machineAfter.tasks - machineBefore.tasks) / TICKS_PER_SECOND,
    unattributedCpuSeconds: (machineAfter.unattributed - machineBefore.unattributed) / TICKS_PER_SECOND,
  };
  for (const [name, list] of Object.entries(groups)) {
    const after = list();
    const earlier = new Map((before[name] ?? []).map((p) => [p.pid, p.ticks]));
    const ticks = after.reduce((sum, p) => sum + p.ticks - (earlier.get(p.pid) ?? 0), 0);
    result.groups[name] = {
      cpuSeconds: ticks / TICKS_PER_SECOND,
      processes: after.length,
      commands: [...new Set(after.map((p) => p.comm))].sort(),
    };
  }
  return result;
}
