/**
 * Counts events per key in a fixed window held in memory. One process needs nothing more;
 * several processes each count their own share (documented in docs/operations.md).
 */
export class WindowCounter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    const entry = this.live(key);
    if (!entry || entry.count < this.max) return 0;
    return Math.ceil((entry.resetAt - this.now()) / 1000);
  }

  hit(key: string): void {
    const entry = this.live(key);
    if (entry) entry.count += 1;
    else this.hits.set(key, { count: 1, resetAt: this.now() + this.windowMs });
    if (this.hits.size > 100_000) this.sweep();
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private live(key: string) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt <= this.now()) {
      this.hits.delete(key);
      return undefined;
    }
    return entry;
  }

  // Bounds memory under a flood of distinct keys.
  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}
