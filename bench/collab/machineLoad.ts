import { readFileSync } from "node:fs";
import { sleep } from "../lib/wait";

/**
 * CPU time all cores have spent busy since boot, in ms (from /proc/stat, USER_HZ = 100). The
 * benchmark shares its 2-core machine with whatever else runs there (other engineers' test
 * suites and browsers); subtracting its own processes from this shows how much that was.
 */
export function machineBusyMs(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const [, user = 0, nice = 0, system = 0, _idle = 0, _iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) * 10;
}

/**
 * Waits (at most `maxMs`) until the machine has been nearly idle for one second, so a step does
 * not start in the middle of someone else's build. Returns the busy share of the last second
 * (% of one core).
 */
export async function waitForQuiet(maxMs: number, thresholdPercent = 40): Promise<number> {
  const deadline = performance.now() + maxMs;
  let busyPercent = Number.POSITIVE_INFINITY;
  while (performance.now() < deadline) {
    const before = machineBusyMs();
    await sleep(1000);
    busyPercent = (machineBusyMs() - before) / 10;
    if (busyPercent < thresholdPercent) break;
  }
  return busyPercent;
}
