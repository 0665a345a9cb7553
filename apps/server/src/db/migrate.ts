import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "./index";

const MIGRATIONS_DIR = path.join(import.meta.dirname, "migrations");

/**
 * Applies every `NNN_name.sql` of `dir` (ours by default) in order, each in its own
 * transaction, once. An advisory lock makes concurrent starts of several processes apply each
 * migration exactly once. Another `dir` brings a database to an earlier version (a migration's
 * test starts from the data it must fix).
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const files = (await fs.readdir(dir)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    const sql = await fs.readFile(path.join(dir, file), "utf8");
    const didApply = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(72616)");
      const done = await tx.query("SELECT 1 FROM schema_migrations WHERE version = $1", [version]);
      if (done.length > 0) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [version, file]);
      return true;
    });
    if (didApply) applied.push(file);
  }
  return applied;
}

/**
 * Our migrations end each statement with `;` at a line's end: a dollar-quoted body (a trigger's
 * function) stays on one line.
 */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s.length > 0);
}
