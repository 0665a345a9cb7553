/** Percentile by nearest rank of an ascending copy; NaN for no samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
