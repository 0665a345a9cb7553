import { DEFAULT_LANGUAGE, STARTER_CODE } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import {
  buildSession,
  DATABASES,
  type openTestDb,
  openTestDbBefore,
  startTestServer,
  type TestServer,
} from "../../../test/harness";
import type { Db } from "../../db/index";
import { migrate } from "../../db/migrate";

const LANGUAGE_DATA = "016_language_data.sql";

async function languageChecks(db: Db) {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
     WHERE s.nspname = current_schema() AND c.conname = 'sessions_language_check'`,
  );
  return rows[0]?.n;
}

describe.each(DATABASES)("a session's language as data (migration 016) on %s", (kind) => {
  let opened: Awaited<ReturnType<typeof openTestDb>>;
  let server: TestServer;
  const editors = editorPool(() => server.url);
  let checksBefore: number | undefined;

  beforeAll(async () => {
    opened = await openTestDbBefore(kind, LANGUAGE_DATA);
    checksBefore = await languageChecks(opened.db);
    await migrate(opened.db);
    server = await startTestServer(kind, {}, { db: opened.db });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
    await opened.drop();
  });

  it("drops the schema's list of languages", async () => {
    expect(checksBefore).toBe(1);
    expect(await languageChecks(opened.db)).toBe(0);
  });

  it("opens a session whose stored language is no longer known in the default one, and says so in the log", async () => {
    const { host, sessionId } = await buildSession(server.api, "retired language");
    await opened.db.query("UPDATE sessions SET language = 'cobol-85' WHERE id = $1", [sessionId]);
    const h = await editors.open(host.token);
    const joined = await h.join(sessionId);
    expect(joined.ok && joined.data.language).toBe(DEFAULT_LANGUAGE);
    await waitFor(() => h.client.synced, 5000, "sync");
    expect(h.text("src/main.js")).toBe(STARTER_CODE.javascript);
    expect(server.logs.some((l) => l.includes("cobol-85") && l.includes(sessionId))).toBe(true);
    // A switch stores a known language again.
    const ack = await h.request("languageUpdate", { sessionId, language: "python" });
    expect(ack).toEqual({ ok: true, data: { sessionId, language: "python" } });
    const [row] = await opened.db.query<{ language: string }>("SELECT language FROM sessions WHERE id = $1", [
      sessionId,
    ]);
    expect(row?.language).toBe("python");
  });

  it("still refuses a language that is not a record", async () => {
    const { host, sessionId } = await buildSession(server.api, "unknown switch");
    const h = await editors.open(host.token);
    await h.join(sessionId);
    const ack = await new Promise((resolve) =>
      h.socket.emit("languageUpdate", { sessionId, language: "cobol-85" }, resolve),
    );
    expect(ack).toMatchObject({ ok: false });
    const [row] = await opened.db.query<{ language: string }>("SELECT language FROM sessions WHERE id = $1", [
      sessionId,
    ]);
    expect(row?.language).toBe("javascript");
  });
});
