/**
 * The benches' statistics, defined once: every figure in a RESULTS.md is one of these. The
 * samples of one step fit in memory, so no histogram library.
 */

/** The q-quantile (0..1) of already sorted samples by nearest rank; NaN when there are none. */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

/** The q-quantile (0..1) of samples in any order, by nearest rank; NaN when there are none. */
export function quantile(samples: ArrayLike<number>, q: number): number {
  return quantileOfSorted(Float64Array.from(samples).sort(), q);
}

/** The middle sample, or the mean of the two middle ones for an even count; NaN when there are none. */
export function median(samples: ArrayLike<number>): number {
  const sorted = Float64Array.from(samples).sort();
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The arithmetic mean; NaN when there are no samples. */
export function mean(samples: ArrayLike<number>): number {
  if (samples.length === 0) return Number.NaN;
  let total = 0;
  for (let i = 0; i < samples.length; i++) total += samples[i] as number;
  return total / samples.length;
}

/** A latency distribution as the reports print it. */
export interface Summary {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** p50, p99, p99.9 (nearest rank) and the maximum of `samples`. */
export function summarize(samples: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    p50: quantileOfSorted(sorted, 0.5),
    p99: quantileOfSorted(sorted, 0.99),
    p999: quantileOfSorted(sorted, 0.999),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}
