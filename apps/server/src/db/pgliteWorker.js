// The embedded PostgreSQL (PGlite, WebAssembly) on its own thread, so its queries never
// block the server's event loop. Plain JavaScript so it runs the same from the sources (tsx)
// and from the production bundle, beside which it is copied. The server's side (pglite.ts)
// sends one message at a time per query and keeps transactions whole; this side only runs
// what it is told, in order.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

const db = await PGlite.create(workerData.dataDir ?? undefined);

/** What the server needs of a database error: its message and PostgreSQL's fields. */
function describe(error) {
  const fields = {};
  for (const key of ["code", "constraint", "detail", "table", "column", "severity"])
    if (error && typeof error === "object" && key in error) fields[key] = error[key];
  return { message: error instanceof Error ? error.message : String(error), fields };
}

parentPort.on("message", async ({ id, kind, sql, params }) => {
  try {
    if (kind === "query") {
      const { rows } = await db.query(sql, params);
      parentPort.postMessage({ id, rows });
    } else if (kind === "exec") {
      await db.exec(sql);
      parentPort.postMessage({ id, rows: [] });
    } else if (kind === "close") {
      await db.close();
      parentPort.postMessage({ id, rows: [] });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: describe(error) });
  }
});

parentPort.postMessage({ ready: true });
