import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Db, Queryable } from "./index";

interface Reply {
  id: number;
  rows?: object[];
  error?: { message: string; fields: Record<string, unknown> };
}

/** An error the database raised, with PostgreSQL's fields (`code`, `constraint`, …) on it. */
export class DatabaseError extends Error {
  constructor(message: string, fields: Record<string, unknown>) {
    super(message);
    Object.assign(this, fields);
  }
}

/**
 * The embedded PostgreSQL in a worker thread (`pgliteWorker.js`): the WebAssembly database
 * runs beside the event loop instead of on it. PGlite has one session, so a transaction
 * holds it whole: other queries wait until it commits or rolls back.
 */
export async function openPgliteWorker(dataDir: string | undefined): Promise<Db> {
  const worker = new Worker(fileURLToPath(new URL("./pgliteWorker.js", import.meta.url)), {
    workerData: { dataDir },
  });
  const pending = new Map<number, { resolve: (rows: object[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;

  const failAll = (error: Error) => {
    failure = error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  worker.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error) waiting.reject(new DatabaseError(reply.error.message, reply.error.fields));
    else waiting.resolve(reply.rows ?? []);
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`the database worker exited (${code})`)));

  function send(kind: "query" | "exec" | "close", sql = "", params: readonly unknown[] = []) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<object[]>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, kind, sql, params });
    });
  }

  // The session's turn: a transaction keeps it from BEGIN to COMMIT, a query for itself.
  let turn: Promise<unknown> = Promise.resolve();
  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = turn.then(work, work);
    turn = next.catch(() => undefined);
    return next;
  }

  const run = <T extends object>(sql: string, params: readonly unknown[] = []) =>
    send("query", sql, params) as Promise<T[]>;

  return {
    kind: "pglite",
    query: (sql, params) => inTurn(() => run(sql, params)),
    transaction: (fn) =>
      inTurn(async () => {
        await run("BEGIN");
        try {
          const tx: Queryable = { query: run };
          const result = await fn(tx);
          await run("COMMIT");
          return result;
        } catch (error) {
          await run("ROLLBACK").catch(() => {});
          throw error;
        }
      }),
    exec: (script) => inTurn(async () => void (await send("exec", script))),
    close: () =>
      inTurn(async () => {
        await send("close");
        await worker.terminate();
      }),
  };
}
