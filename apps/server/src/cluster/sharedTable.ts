import type { Redis } from "ioredis";
import type { z } from "zod";

/** A row of a shared table: its value and when a node last said it still holds it. */
interface Stamped {
  seenAt: number;
}

/**
 * Small per-session tables that every node of a cluster reads and writes (a session's lobby,
 * its call): in Redis with `REDIS_URL`, in this process alone without. A row is kept by the
 * node that holds its socket, which renews it; a row not renewed for `staleMs` (its node died)
 * is dropped when read. Rows are parsed with their schema when read: Redis is outside data.
 */
export interface SharedTable<T extends Stamped> {
  /** Writes a row (replacing it). */
  set(key: string, field: string, value: T): Promise<void>;
  /** Writes a row only while it exists: a renewal never brings back a row someone took. */
  renew(key: string, field: string, value: T): Promise<void>;
  get(key: string, field: string): Promise<T | undefined>;
  /** Every live row of `key`. */
  all(key: string): Promise<Map<string, T>>;
  /** Deletes the stale rows of `key` and answers them (their node died: someone must say so). */
  sweep(key: string): Promise<T[]>;
  /** Deletes a row and answers it: of two nodes taking one row at once, one gets it. */
  take(key: string, field: string): Promise<T | undefined>;
}

// HGET and HDEL as one step, so two takers never both get the row.
const TAKE = `local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then redis.call('HDEL', KEYS[1], ARGV[1]) end
return v`;
// HSET only if the field is still there.
const RENEW = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 0`;

/** A table whose rows are forgotten with their key an hour after its last write. */
const KEY_TTL_MS = 3_600_000;

/** A shared table named `name` (Redis keys `ensemble:{name}:{key}`), or this process's own without Redis. */
export function sharedTable<T extends Stamped>(
  redis: Redis | undefined,
  name: string,
  schema: z.ZodType<T>,
  staleMs: number,
): SharedTable<T> {
  if (!redis) return memoryTable<T>();
  const keyOf = (key: string) => `ensemble:${name}:${key}`;
  const parse = (text: string | null | undefined): T | undefined => {
    if (!text) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  };
  const isLive = (row: T | undefined): row is T => row !== undefined && row.seenAt >= Date.now() - staleMs;
  return {
    async set(key, field, value) {
      await redis
        .multi()
        .hset(keyOf(key), field, JSON.stringify(value))
        .pexpire(keyOf(key), KEY_TTL_MS)
        .exec();
    },
    async renew(key, field, value) {
      await redis.eval(RENEW, 1, keyOf(key), field, JSON.stringify(value), KEY_TTL_MS);
    },
    async get(key, field) {
      const row = parse(await redis.hget(keyOf(key), field));
      return isLive(row) ? row : undefined;
    },
    async all(key) {
      const rows = new Map<string, T>();
      const stale: string[] = [];
      for (const [field, text] of Object.entries(await redis.hgetall(keyOf(key)))) {
        const row = parse(text);
        if (isLive(row)) rows.set(field, row);
        else stale.push(field);
      }
      if (stale.length > 0) await redis.hdel(keyOf(key), ...stale);
      return rows;
    },
    async sweep(key) {
      const swept: T[] = [];
      for (const [field, text] of Object.entries(await redis.hgetall(keyOf(key)))) {
        const row = parse(text);
        if (isLive(row)) continue;
        // Only the sweeper that deletes a row reports it.
        if ((await redis.hdel(keyOf(key), field)) === 1 && row) swept.push(row);
      }
      return swept;
    },
    async take(key, field) {
      const text = await redis.eval(TAKE, 1, keyOf(key), field);
      const row = parse(typeof text === "string" ? text : undefined);
      return isLive(row) ? row : undefined;
    },
  };
}

/** One process's table: its rows live as long as their sockets, so none goes stale. */
function memoryTable<T extends Stamped>(): SharedTable<T> {
  const tables = new Map<string, Map<string, T>>();
  const rowsOf = (key: string) => {
    let rows = tables.get(key);
    if (!rows) {
      rows = new Map();
      tables.set(key, rows);
    }
    return rows;
  };
  const remove = (key: string, field: string) => {
    const rows = tables.get(key);
    const row = rows?.get(field);
    rows?.delete(field);
    if (rows?.size === 0) tables.delete(key);
    return row;
  };
  return {
    async set(key, field, value) {
      rowsOf(key).set(field, value);
    },
    async renew(key, field, value) {
      if (tables.get(key)?.has(field)) rowsOf(key).set(field, value);
    },
    get: async (key, field) => tables.get(key)?.get(field),
    all: async (key) => new Map(tables.get(key) ?? []),
    sweep: async () => [],
    take: async (key, field) => remove(key, field),
  };
}
