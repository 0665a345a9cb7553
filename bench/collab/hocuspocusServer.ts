/**
 * Hocuspocus as the benchmark runs it: the stock `Server`, in-memory (its default), with a plain
 * HTTP answer on `/health` for the outside latency probe that also says how many client updates
 * it applied. With `PERSIST_DIR` set it stores each document's whole state in a file there
 * through its Database extension, after each change as its debounce allows: Hocuspocus's
 * default (2 s, at most 10 s), or `STORE_DEBOUNCE_MS` (0: on every change). Not its SQLite
 * extension: that needs better-sqlite3, a native module compiled at `npm ci` on a machine
 * without its prebuilt binary (no download here), which a fresh machine may have no compiler for.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Database } from "@hocuspocus/extension-database";
import { type Extension, Server } from "@hocuspocus/server";

const port = Number(process.env.PORT ?? 4302);
const persistDir = process.env.PERSIST_DIR;
const debounceText = process.env.STORE_DEBOUNCE_MS;
const debounce = debounceText === undefined ? undefined : Number(debounceText);
if (debounce !== undefined && !(Number.isInteger(debounce) && debounce >= 0))
  throw new Error(`STORE_DEBOUNCE_MS: ${debounceText} is not a whole number of milliseconds`);

/**
 * Client updates since start. `onChange` runs for every update that changed a document, with
 * the connection it came from (none for a document loaded from storage). Hocuspocus refuses an
 * update only from a read-only connection (answering a negative sync status), and this server
 * makes none, so `refused` stays 0; a message it cannot handle closes the connection instead,
 * which the clients count as a disconnect.
 */
const updates = { applied: 0, refused: 0 };
/**
 * Rounds of `onStoreDocument` since start, as often as the debounce lets one through; with
 * `PERSIST_DIR` each writes a document's whole state (in memory there is no store to run).
 */
let stores = 0;

const counting: Extension = {
  async onChange({ connection }) {
    if (connection) updates.applied += 1;
  },
  // Runs once every extension's onStoreDocument succeeded.
  async afterStoreDocument() {
    stores += 1;
  },
};

const health: Extension = {
  async onRequest({ request, response }) {
    if (request.url !== "/health") return;
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ ok: true, updates, stores }));
    // Hocuspocus treats a rejection without an error as "handled, stop here".
    throw null;
  },
};

const extensions: Extension[] = [counting, health];
const fileOf = (name: string) => path.join(persistDir ?? "", `${encodeURIComponent(name)}.bin`);
if (persistDir) {
  extensions.push(
    new Database({
      fetch: async ({ documentName }) => {
        try {
          return new Uint8Array(await readFile(fileOf(documentName)));
        } catch {
          return null;
        }
      },
      store: async ({ documentName, state }) => {
        await writeFile(fileOf(documentName), state);
      },
    }),
  );
}

const server = new Server({
  port,
  address: "127.0.0.1",
  quiet: true,
  extensions,
  ...(debounce === undefined ? {} : { debounce }),
});
await server.listen();
