import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { EMBEDDED_USER, startEmbeddedPostgres } from "./embedded";

/** A row-returning SQL runner shared by the embedded and the server database. */
export interface Queryable {
  /**
   * `name` makes it a prepared statement, parsed and planned once per connection: for a hot
   * statement whose text never changes.
   */
  query<T extends object>(sql: string, params?: readonly unknown[], name?: string): Promise<T[]>;
}

/** The store: queries, transactions, multi-statement scripts, close. */
export interface Db extends Queryable {
  readonly kind: "embedded" | "postgres";
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  exec(script: string): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A postgres:// URL; without it the embedded PostgreSQL is used. */
  url?: string | undefined;
  /** Folder of the embedded database; undefined gives a temporary one, removed on close (tests). */
  dataDir?: string | undefined;
  /** Schema to work in on a server (tests isolate themselves this way); created if missing. */
  schema?: string | undefined;
  /** Called if the embedded PostgreSQL exits while the database is open (it is not restarted). */
  onEmbeddedExit?: ((error: Error) => void) | undefined;
}

/**
 * Opens the configured database: PostgreSQL at a URL when one is given, otherwise PostgreSQL's
 * own binaries started as a child process on `dataDir` (embedded.ts), reached on a Unix socket.
 */
export async function openDatabase(options: DbOptions): Promise<Db> {
  if (options.url) return openPostgres("postgres", { connectionString: options.url }, options.schema);
  const temporary = options.dataDir ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-db-"));
  const dataDir = options.dataDir ?? path.join(temporary ?? "", "postgres");
  const server = await startEmbeddedPostgres(dataDir);
  let isClosing = false;
  void server.exited.then((message) => {
    if (!isClosing) options.onEmbeddedExit?.(new Error(message));
  });
  const db = await openPostgres("embedded", {
    host: server.socketDir,
    user: EMBEDDED_USER,
    database: "postgres",
  });
  return {
    ...db,
    close: async () => {
      isClosing = true;
      await db.close();
      await server.stop();
      if (temporary) await fs.rm(temporary, { recursive: true, force: true });
    },
  };
}

async function openPostgres(kind: Db["kind"], connection: pg.PoolConfig, schema?: string): Promise<Db> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error("bad schema name");
  const pool = new pg.Pool({
    ...connection,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const query = async <T extends object>(sql: string, params: readonly unknown[] = [], name?: string) =>
    (await pool.query<T>(statement(sql, params, name))).rows;
  return {
    kind,
    query,
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: async <T extends object>(sql: string, params: readonly unknown[] = [], name?: string) =>
            (await client.query<T>(statement(sql, params, name))).rows,
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

/** A query for node-postgres; a `name` makes it a statement prepared once per connection. */
const statement = (sql: string, params: readonly unknown[], name?: string): pg.QueryConfig => ({
  text: sql,
  values: [...params],
  ...(name ? { name } : {}),
});

/** True when a database error is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): error is { code: string; constraint?: string } {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}
