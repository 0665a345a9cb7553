import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { openPgliteWorker } from "./pglite";

/** A row-returning SQL runner shared by the embedded and the server database. */
export interface Queryable {
  query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The store: queries, transactions, multi-statement scripts, close. */
export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A postgres:// URL; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** Folder of the embedded database; undefined keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Schema to work in on a server (tests isolate themselves this way); created if missing. */
  schema?: string | undefined;
}

/**
 * Opens the configured database: PostgreSQL when a URL is given, otherwise the embedded
 * PGlite in a worker thread (pglite.ts), off the event loop.
 */
export async function openDatabase(options: DbOptions): Promise<Db> {
  if (options.url) return openPostgres(options.url, options.schema);
  if (options.dataDir) await fs.mkdir(path.dirname(options.dataDir), { recursive: true });
  return openPgliteWorker(options.dataDir);
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error("bad schema name");
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const query = async <T extends object>(sql: string, params: readonly unknown[] = []) =>
    (await pool.query<T>(sql, [...params])).rows;
  return {
    kind: "postgres",
    query,
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: async <T extends object>(sql: string, params: readonly unknown[] = []) =>
            (await client.query<T>(sql, [...params])).rows,
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    exec: async (script) => {
      await pool.query(script);
    },
    close: () => pool.end(),
  };
}

/** True when a database error is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): error is { code: string; constraint?: string } {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}
