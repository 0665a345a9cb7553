/**
 * The update log's INSERT (collab/repo.ts `appendMany`) as PostgreSQL runs it: a VALUES list
 * of three parameters a row (its text changes with the row count, so it is parsed and planned
 * every time) against three arrays unnested by one prepared statement. Reports the backend's
 * CPU per statement, read from /proc (so PostgreSQL must run on this machine), for a tick of
 * 14 and of 55 updates (25 and 100 typing sessions at bench/collab's rate, 50 ms a tick).
 * The tables are the log's and the history's, with their indexes and with foreign keys on
 * both (before migration 014), on the log only (before 015) or on neither, in a schema of
 * their own that is dropped at the end. Without keys, the statement as it is now keeps out
 * rows of a missing session by a join and counts the rows stored.
 *
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:append -w bench`
 */
import { readFileSync } from "node:fs";
import pg from "pg";

const url = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const statements = Number(process.env.BENCH_STATEMENTS ?? 400);
const client = new pg.Client({ connectionString: url });
await client.connect();

/** The backend's user + system CPU so far, in ms. */
async function backendCpuMs(): Promise<number> {
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const fields = readFileSync(`/proc/${rows[0]?.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The log's and the history's tables, with foreign keys to `sessions` on `keys` of them. */
async function createTables(keys: "both" | "log" | "none"): Promise<void> {
  const key = "REFERENCES sessions (id) ON DELETE CASCADE";
  const logKey = keys === "none" ? "" : key;
  const historyKey = keys === "both" ? key : "";
  await client.query(`DROP SCHEMA IF EXISTS bench_append CASCADE; CREATE SCHEMA bench_append;
    SET search_path = bench_append;
    CREATE TABLE sessions (id text PRIMARY KEY);
    CREATE TABLE doc_updates (id bigserial PRIMARY KEY,
      session_id text NOT NULL ${logKey}, data bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), author text, writer text);
    CREATE INDEX ON doc_updates (session_id, id);
    CREATE TABLE doc_history (session_id text NOT NULL ${historyKey},
      id bigint NOT NULL, author text, at timestamptz NOT NULL, data bytea NOT NULL,
      PRIMARY KEY (session_id, id));
    CREATE INDEX ON doc_history (session_id, at, id);
    INSERT INTO sessions SELECT 's' || g FROM generate_series(1, 100) AS g;`);
}

interface Row {
  sessionId: string;
  update: string;
  author: string;
}

const HISTORY = `INSERT INTO doc_history (id, session_id, author, at, data)
  SELECT id, session_id, author, created_at, data FROM logged`;

async function valuesList(rows: Row[]): Promise<void> {
  const values = rows
    .map((_, i) => `($${3 * i + 2}, decode($${3 * i + 3}, 'base64'), $${3 * i + 4}, $1)`)
    .join(", ");
  await client.query(
    `WITH logged AS (INSERT INTO doc_updates (session_id, data, author, writer) VALUES ${values}
       RETURNING id, session_id, data, author, created_at) ${HISTORY}`,
    ["w", ...rows.flatMap((r) => [r.sessionId, r.update, r.author])],
  );
}

/** `check` keeps out rows of a missing session, `end` ends the statement after the history. */
function prepared(name: string, check: string, end: string): (rows: Row[]) => Promise<void> {
  return async (rows) => {
    await client.query({
      name,
      text: `WITH logged AS (INSERT INTO doc_updates (session_id, data, author, writer)
         SELECT session_id, decode(data, 'base64'), author, $1
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS row(session_id, data, author, n)
         ${check} ORDER BY n RETURNING id, session_id, data, author, created_at) ${end}`,
      values: ["w", rows.map((r) => r.sessionId), rows.map((r) => r.update), rows.map((r) => r.author)],
    });
  };
}
const preparedArrays = prepared("bench_append", "", HISTORY);
// As collab/repo.ts `appendMany` is since migration 015.
const preparedChecked = prepared(
  "bench_append_checked",
  "WHERE EXISTS (SELECT 1 FROM sessions WHERE sessions.id = row.session_id)",
  `, kept AS (${HISTORY} RETURNING 1) SELECT count(*)::int AS count FROM kept`,
);

// A typed character's update as the browser sends it, base64 (24 bytes).
const UPDATE = "AQHG6Y7SDgQAhNmOzA5HAWEA";
// Migration 014 dropped the history's key, 015 the log's: the last is the statement now.
const ways = [
  ["VALUES list, both keys", valuesList, "both"],
  ["prepared, both keys", preparedArrays, "both"],
  ["prepared, log's key", preparedArrays, "log"],
  ["prepared, no keys", preparedArrays, "none"],
  ["no keys, join (now)", preparedChecked, "none"],
] as const;
console.log(`${url.replace(/\/\/[^@]*@/, "//")}, ${statements} statements each, after 50 of warm-up`);
for (let round = 1; round <= 2; round++) {
  for (const [label, append, keys] of ways) {
    for (const count of [14, 55]) {
      await createTables(keys);
      const rows = Array.from({ length: count }, (_, i) => ({
        sessionId: `s${1 + ((i * 7) % 100)}`,
        update: UPDATE,
        author: `user-${i % 200}`,
      }));
      for (let i = 0; i < 50; i++) await append(rows);
      const before = await backendCpuMs();
      for (let i = 0; i < statements; i++) await append(rows);
      const perStatement = ((await backendCpuMs()) - before) / statements;
      console.log(
        `round ${round}  ${label.padEnd(23)} ${String(count).padStart(2)} rows: ${perStatement.toFixed(3)} ms of backend CPU a statement, ${((perStatement / count) * 1000).toFixed(1)} µs a row`,
      );
    }
  }
}
await client.query("DROP SCHEMA bench_append CASCADE");
await client.end();
