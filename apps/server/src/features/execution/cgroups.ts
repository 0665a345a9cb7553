import fs from "node:fs/promises";
import path from "node:path";
import { isAlive } from "./uids";

/** The limits a run's control group enforces. */
export interface CgroupLimits {
  memoryBytes: number;
  maxProcesses: number;
  /** The runs' niceness, turned into the CPU weight of their groups (see cpuWeight). */
  nice: number;
}

/**
 * A group's CPU weight competes with the server's own threads, and a process's nice value
 * counts only inside its group, so the runs' group gets the weight their nice value would
 * have (docs/sandbox.md has the measurement). Scaled as the kernel scales nice (×1.25 per
 * step): nice 10 gives 110 of 1024 (v1 cpu.shares), 11 of 100 (v2 cpu.weight).
 */
export function cpuWeight(nice: number, base: 1024 | 100): number {
  return Math.max(base === 1024 ? 2 : 1, Math.round(base / 1.25 ** nice));
}

/** What a run's group measured. */
export interface CgroupUsage {
  memory: number | null;
  isOomKilled: boolean;
  cpuMs: number | null;
}

/**
 * The control group(s) of one run: the parked launcher joins them before the run, `begin` sets
 * the run's own limit and zeroes the meters when it starts, the runner reads them after.
 */
export interface RunCgroup {
  /** Every `cgroup.procs` the launcher is written into. */
  procsFiles: string[];
  /**
   * Applies the run's memory limit (at most the configured one) and starts measuring. False
   * when the limit is below what the waiting launcher already uses: the program cannot fit.
   */
  begin(memoryBytes: number): Promise<boolean>;
  /**
   * Sets the memory limit of the stage that starts now (a compiled run's program after its
   * compile), at most the configured one; false when the group already holds more.
   */
  limit(memoryBytes: number): Promise<boolean>;
  /** What the group measured since `begin`; may be read again later. */
  collect(): Promise<CgroupUsage>;
  /** Kills anything left in the group and frees it for the next run. */
  release(): Promise<void>;
}

export interface Cgroups {
  mode: "v1" | "v2" | "none";
  /** Why cgroups are off, when they are. */
  reason?: string;
  /** The group of the slot's next run, at the configured limits. */
  prepare(slot: number): Promise<RunCgroup | undefined>;
  close(): Promise<void>;
}

const NONE = (reason: string): Cgroups => ({
  mode: "none",
  reason,
  prepare: async () => undefined,
  close: async () => {},
});

let instances = 0;

/**
 * Finds the memory and pids controllers this process may delegate to (cgroup v1 hierarchies
 * or the v2 unified tree) and creates this server's group under its own. Anything missing or
 * read-only gives mode "none" with the reason: the caller logs it and relies on rlimits.
 */
export async function detectCgroups(limits: CgroupLimits, root = "/sys/fs/cgroup"): Promise<Cgroups> {
  instances += 1;
  const name = `ensemble-${process.pid}-${instances}`;
  try {
    const own = await fs.readFile("/proc/self/cgroup", "utf8");
    const isV2 = await exists(path.join(root, "cgroup.controllers"));
    return isV2 ? await setupV2(root, own, name, limits) : await setupV1(own, name, limits);
  } catch (error) {
    return NONE(error instanceof Error ? error.message : String(error));
  }
}

// ---- cgroup v1: one hierarchy per controller; a group per slot, reused run after run ----

async function setupV1(ownCgroups: string, name: string, limits: CgroupLimits): Promise<Cgroups> {
  const mounts = await v1Mounts();
  const dirOf = (controller: string) => {
    const mount = mounts.get(controller);
    const line = ownCgroups.split("\n").find((l) => l.split(":")[1]?.split(",").includes(controller));
    if (!mount || !line) return undefined;
    const own = line.slice(line.indexOf(":", line.indexOf(":") + 1) + 1);
    const relative = mount.root === "/" ? own : path.relative(mount.root, own);
    return path.join(mount.point, relative);
  };
  const memory = dirOf("memory");
  const pids = dirOf("pids");
  if (!memory || !pids) return NONE("the memory or pids cgroup v1 controller is not mounted");
  const cpu = dirOf("cpu");
  const cpuacct = dirOf("cpuacct");
  const parents = [...new Set([memory, pids, cpu, cpuacct].filter((d): d is string => d !== undefined))];
  for (const parent of parents) await sweepStale(parent);
  const bases = parents.map((p) => path.join(p, name));
  for (const base of bases) await fs.mkdir(base);
  if (cpu) await write(path.join(cpu, name), "cpu.shares", cpuWeight(limits.nice, 1024)).catch(() => {});
  const slotDir = (parent: string, slot: number) => path.join(parent, name, `slot-${slot}`);
  const ready = new Set<number>();

  async function createSlot(slot: number) {
    for (const parent of parents) await fs.mkdir(slotDir(parent, slot), { recursive: true });
    const mem = slotDir(memory as string, slot);
    await write(mem, "memory.limit_in_bytes", limits.memoryBytes);
    // Only present with swap accounting; no swap means nothing to limit.
    await write(mem, "memory.memsw.limit_in_bytes", limits.memoryBytes).catch(() => {});
    await write(slotDir(pids as string, slot), "pids.max", limits.maxProcesses);
    if (cpu) {
      // One core per run, so busy runs cannot take every core from the server.
      await write(slotDir(cpu, slot), "cpu.cfs_period_us", 100_000).catch(() => {});
      await write(slotDir(cpu, slot), "cpu.cfs_quota_us", 100_000).catch(() => {});
    }
  }

  return {
    mode: "v1",
    async prepare(slot) {
      if (!ready.has(slot)) {
        await createSlot(slot);
        ready.add(slot);
      }
      const mem = slotDir(memory, slot);
      const cpuUsage = cpuacct ? path.join(slotDir(cpuacct, slot), "cpuacct.usage") : undefined;
      let oomBefore: number | null = null;
      let cpuBefore: number | null = null;
      let lowered = false;
      const limit = async (memoryBytes: number) => {
        const bytes = Math.min(memoryBytes, limits.memoryBytes);
        if (bytes === limits.memoryBytes && !lowered) return true;
        try {
          await write(mem, "memory.limit_in_bytes", bytes);
          lowered = bytes < limits.memoryBytes;
          return true;
        } catch (error) {
          // The kernel refuses a limit below the group's usage (the launcher's own pages).
          if ((error as NodeJS.ErrnoException).code === "EBUSY") return false;
          throw error;
        }
      };
      return {
        procsFiles: parents.map((p) => path.join(slotDir(p, slot), "cgroup.procs")),
        limit,
        async begin(memoryBytes) {
          if (!(await limit(memoryBytes))) return false;
          [, oomBefore, cpuBefore] = await Promise.all([
            write(mem, "memory.max_usage_in_bytes", 0).catch(() => {}),
            readOomKills(path.join(mem, "memory.oom_control")),
            cpuUsage ? readNumber(cpuUsage) : null,
          ]);
          return true;
        },
        async collect() {
          const [peak, oomAfter, cpuAfter] = await Promise.all([
            readNumber(path.join(mem, "memory.max_usage_in_bytes")),
            readOomKills(path.join(mem, "memory.oom_control")),
            cpuUsage ? readNumber(cpuUsage) : null,
          ]);
          return {
            memory: peak,
            isOomKilled: oomAfter !== null && oomBefore !== null && oomAfter > oomBefore,
            cpuMs: cpuAfter !== null && cpuBefore !== null ? Math.round((cpuAfter - cpuBefore) / 1e6) : null,
          };
        },
        release: async () => {
          await killMembers(parents.map((p) => slotDir(p, slot)));
          // Back to the configured limit, so the next parked launcher always fits.
          if (lowered) await write(mem, "memory.limit_in_bytes", limits.memoryBytes);
        },
      };
    },
    async close() {
      for (const slot of ready) for (const parent of parents) await rmdirQuiet(slotDir(parent, slot));
      for (const base of bases) await rmdirQuiet(base);
    },
  };
}

async function v1Mounts(): Promise<Map<string, { point: string; root: string }>> {
  const mounts = new Map<string, { point: string; root: string }>();
  for (const line of (await fs.readFile("/proc/self/mountinfo", "utf8")).split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const [fstype, , superOptions] = right.split(" ");
    if (fstype !== "cgroup" || !superOptions) continue;
    const fields = left.split(" ");
    const root = fields[3];
    const point = fields[4];
    if (!root || !point) continue;
    for (const option of superOptions.split(","))
      if (!mounts.has(option)) mounts.set(option, { point, root });
  }
  return mounts;
}

// ---- cgroup v2: one tree; a fresh group per run (memory.peak cannot be reset everywhere) ----

async function setupV2(
  root: string,
  ownCgroups: string,
  name: string,
  limits: CgroupLimits,
): Promise<Cgroups> {
  const own = ownCgroups.split("\n").find((l) => l.startsWith("0::"));
  if (!own) return NONE("this process is not in the cgroup v2 tree");
  const parent = path.join(root, own.slice(3));
  const available = (await fs.readFile(path.join(parent, "cgroup.controllers"), "utf8")).trim().split(/\s+/);
  if (!available.includes("memory") || !available.includes("pids")) {
    return NONE("the memory or pids cgroup v2 controller is not delegated to this process");
  }
  const controllers = ["memory", "pids", ...(available.includes("cpu") ? ["cpu"] : [])];
  const enable = controllers.map((c) => `+${c}`).join(" ");
  await sweepStale(parent);
  try {
    await write(parent, "cgroup.subtree_control", enable);
  } catch {
    // "No internal processes": a group that delegates controllers holds no process itself,
    // so the server moves into a leaf of its own first (as Piston's entrypoint does).
    const leaf = path.join(parent, `${name}-server`);
    await fs.mkdir(leaf, { recursive: true });
    await write(leaf, "cgroup.procs", process.pid);
    await write(parent, "cgroup.subtree_control", enable);
  }
  const base = path.join(parent, name);
  await fs.mkdir(base);
  await write(base, "cgroup.subtree_control", enable);
  if (controllers.includes("cpu"))
    await write(base, "cpu.weight", cpuWeight(limits.nice, 100)).catch(() => {});
  let runs = 0;

  return {
    mode: "v2",
    async prepare(slot) {
      runs += 1;
      const dir = path.join(base, `run-${slot}-${runs}`);
      await fs.mkdir(dir);
      await write(dir, "memory.max", limits.memoryBytes);
      await write(dir, "memory.swap.max", 0).catch(() => {});
      await write(dir, "memory.oom.group", 1).catch(() => {});
      await write(dir, "pids.max", limits.maxProcesses);
      if (controllers.includes("cpu")) await write(dir, "cpu.max", "100000 100000").catch(() => {});
      let cpuBefore = 0;
      const cpuUsage = async () => {
        const cpu = await fs.readFile(path.join(dir, "cpu.stat"), "utf8").catch(() => "");
        const usage = cpu.match(/^usage_usec (\d+)/m);
        return usage ? Number(usage[1]) : null;
      };
      return {
        procsFiles: [path.join(dir, "cgroup.procs")],
        async limit(memoryBytes) {
          const current = (await readNumber(path.join(dir, "memory.current"))) ?? 0;
          const limit = Math.min(memoryBytes, limits.memoryBytes);
          if (limit < current) return false;
          await write(dir, "memory.max", limit);
          return true;
        },
        async begin(memoryBytes) {
          const current = (await readNumber(path.join(dir, "memory.current"))) ?? 0;
          const limit = Math.min(memoryBytes, limits.memoryBytes);
          if (limit < current) return false;
          if (limit < limits.memoryBytes) await write(dir, "memory.max", limit);
          // memory.peak counts from the group's creation; the launcher waiting in it is small.
          cpuBefore = (await cpuUsage()) ?? 0;
          return true;
        },
        async collect() {
          const events = await fs.readFile(path.join(dir, "memory.events"), "utf8").catch(() => "");
          const usage = await cpuUsage();
          return {
            memory: await readNumber(path.join(dir, "memory.peak")),
            isOomKilled: Number(events.match(/^oom_kill (\d+)/m)?.[1] ?? 0) > 0,
            cpuMs: usage !== null ? Math.round((usage - cpuBefore) / 1000) : null,
          };
        },
        async release() {
          await write(dir, "cgroup.kill", 1).catch(() => {});
          await killMembers([dir]);
          await rmdirQuiet(dir);
        },
      };
    },
    close: () => rmdirQuiet(base),
  };
}

// ---- helpers ----

async function write(dir: string, file: string, value: string | number) {
  await fs.writeFile(path.join(dir, file), String(value));
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function readNumber(file: string): Promise<number | null> {
  const text = await fs.readFile(file, "utf8").catch(() => undefined);
  const n = Number(text?.trim());
  return text !== undefined && Number.isFinite(n) ? n : null;
}

async function readOomKills(file: string): Promise<number | null> {
  const text = await fs.readFile(file, "utf8").catch(() => undefined);
  const match = text?.match(/^oom_kill (\d+)/m);
  return match ? Number(match[1]) : text === undefined ? null : 0;
}

/**
 * The PID namespace's teardown already killed everything; this is the belt to its braces:
 * a process still in the group is SIGKILLed until the group is empty (or 1 s passed).
 */
async function killMembers(dirs: string[]) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    let left = 0;
    const members = await Promise.all(
      dirs.map((dir) => fs.readFile(path.join(dir, "cgroup.procs"), "utf8").catch(() => "")),
    );
    for (const procs of members) {
      for (const pid of procs.split("\n").filter(Boolean)) {
        left += 1;
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function rmdirQuiet(dir: string) {
  await fs.rmdir(dir).catch(() => {});
}

/** Removes groups left by servers that died without closing (their pid is gone). */
async function sweepStale(parent: string) {
  const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const match = entry.isDirectory() && entry.name.match(/^ensemble-(\d+)-\d+$/);
    if (!match || isAlive(Number(match[1]))) continue;
    const dir = path.join(parent, entry.name);
    for (const child of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (child.isDirectory()) await rmdirQuiet(path.join(dir, child.name));
    }
    await rmdirQuiet(dir);
  }
}
