/**
 * Hocuspocus as the benchmark runs it: the stock `Server`, in-memory (its default), with a plain
 * HTTP answer on `/health` for the outside latency probe that also says how many client updates
 * it applied. With `PERSIST_DIR` set it stores each document's state in a file through the
 * Database extension, so the cold-load step can restart it.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Database } from "@hocuspocus/extension-database";
import { type Extension, Server } from "@hocuspocus/server";

const port = Number(process.env.PORT ?? 4302);
const persistDir = process.env.PERSIST_DIR;

/**
 * Client updates since start. `onChange` runs for every update that changed a document, with
 * the connection it came from (none for a document loaded from storage). Hocuspocus refuses an
 * update only from a read-only connection (answering a negative sync status), and this server
 * makes none, so `refused` stays 0; a message it cannot handle closes the connection instead,
 * which the clients count as a disconnect.
 */
const updates = { applied: 0, refused: 0 };

const counting: Extension = {
  async onChange({ connection }) {
    if (connection) updates.applied += 1;
  },
};

const health: Extension = {
  async onRequest({ request, response }) {
    if (request.url !== "/health") return;
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ ok: true, updates }));
    // Hocuspocus treats a rejection without an error as "handled, stop here".
    throw null;
  },
};

const fileOf = (name: string) => path.join(persistDir ?? "", `${encodeURIComponent(name)}.bin`);

const extensions: Extension[] = [counting, health];
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

const server = new Server({ port, address: "127.0.0.1", quiet: true, extensions });
await server.listen();
