/** Small numeric helpers; the samples of one step fit in memory, so no histogram library. */

/**
 * mulberry32: a small seeded generator, so every benchmarked system gets the same keystrokes
 * and a run can be replayed from its seeds. (The server's convergence test keeps its own: a
 * bench imports no test file.)
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform integer in [min, max]. */
export function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** The q-quantile (0..1) of already sorted samples; NaN when there are none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

export function summarize(samples: number[] | Float64Array): Summary {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    p999: quantile(sorted, 0.999),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

export function median(values: number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate` holds, checking every 10 ms; rejects after `timeoutMs` naming `what`. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}
