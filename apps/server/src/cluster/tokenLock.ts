import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

// Compare-and-act on a key only while it still holds our token: a lock that expired and was
// taken by someone else is never extended or deleted by its previous holder.
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Redis's single-instance lock: `SET key token NX PX ttl`, renewed and released only by the
 * holder of the token (https://redis.io/docs/latest/develop/use/patterns/distributed-locks/).
 * We run one Redis (or one primary), so Redlock's quorum over several would add nothing; its
 * npm package has been a beta since 2022, so the few lines of the documented pattern are here.
 */
export class TokenLock {
  constructor(private readonly redis: Redis) {}

  /** A fresh token: each holding of a lock is told apart from every other. */
  static token(): string {
    return randomBytes(16).toString("base64url");
  }

  /** Takes `key` for `ttlMs` if nobody holds it; answers whether we did. */
  async acquire(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(key, token, "PX", ttlMs, "NX")) === "OK";
  }

  /** Extends our holding of `key`; false when it is no longer ours (it expired). */
  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(RENEW, 1, key, token, String(ttlMs))) === 1;
  }

  /** Lets `key` go if it is still ours. */
  async release(key: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, key, token);
  }

  /** Who holds `key` now (its token), if anyone. */
  holder(key: string): Promise<string | null> {
    return this.redis.get(key);
  }
}
