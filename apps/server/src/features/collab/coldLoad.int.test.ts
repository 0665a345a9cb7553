import { fileIdAt } from "@ensemble/collab";
import { LANGUAGE_MAIN_FILES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import type { Db } from "../../db/index";
import { createDocRepo } from "./repo";

const MAIN = LANGUAGE_MAIN_FILES.javascript;

/** The stored document of a session (snapshot, then the log), as a load reads it. */
async function storedText(db: Db, sessionId: string): Promise<string> {
  const { snapshot, updates } = await createDocRepo(db).load(sessionId);
  const doc = new Y.Doc();
  for (const update of snapshot ? [snapshot, ...updates] : updates) Y.applyUpdate(doc, update);
  return doc.getText(fileIdAt(doc, MAIN) ?? "missing").toString();
}

async function logRows(db: Db, sessionId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM doc_updates WHERE session_id = $1",
    [sessionId],
  );
  return row?.n ?? 0;
}

describe.each(DATABASES)("a session loaded from its snapshot on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("gives late clients the exact text, and edits after the load converge and are stored", async () => {
    const { host, sessionId } = await buildSession(server.api, "cold");
    const author = await editors.open(host.token);
    await author.join(sessionId);
    await waitFor(() => author.client.synced);
    for (let i = 0; i < 200; i++) {
      const text = author.file();
      text.insert((i * 13) % (text.length + 1), `t${i} `);
      if (i % 4 === 0) text.delete(i % text.length, 3);
    }
    const typed = author.text();
    await author.close();
    // The last one out unloads the session: one current snapshot, nothing in the log.
    const [snapshot] = await server.db.query<{ format: number; has_summary: boolean }>(
      "SELECT format, summary IS NOT NULL AS has_summary FROM doc_snapshots WHERE session_id = $1",
      [sessionId],
    );
    expect(snapshot).toEqual({ format: 1, has_summary: true });
    expect(await logRows(server.db, sessionId)).toBe(0);

    const [b, c] = [await editors.open(), await editors.open()];
    for (const e of [b, c]) await e.join(sessionId);
    await waitFor(() => b.client.synced && c.client.synced);
    expect(b.text()).toBe(typed);
    expect(c.text()).toBe(typed);
    b.file().insert(0, "// b\n");
    c.file().insert(c.file().length, "\n// c");
    await waitFor(() => b.text() === c.text() && b.text().includes("// c") && c.text().includes("// b"));
    const edited = b.text();
    expect(edited).toBe(`// b\n${typed}\n// c`);
    await b.close();
    await c.close();
    expect(await storedText(server.db, sessionId)).toBe(edited);

    const late = await editors.open();
    await late.join(sessionId);
    await waitFor(() => late.client.synced);
    expect(late.text()).toBe(edited);
  });
});
