/** Seeded randomness: the same keystrokes for every benchmarked system. */

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
