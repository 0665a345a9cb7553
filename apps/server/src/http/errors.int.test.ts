import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltUser,
  buildSession,
  buildUser,
  startTestServer,
  type TestServer,
} from "../../test/harness";
import { writeWebBuild } from "../../test/webBuild";

const JSON_TYPE = { "content-type": "application/json" };

/** Issue 13 item 1: every client error is a 4xx with a message, and changes nothing. */
describe("client errors", () => {
  let server: TestServer;
  let user: BuiltUser;
  let webDir: string;

  beforeAll(async () => {
    webDir = await writeWebBuild(await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-web-")));
    server = await startTestServer("postgres", { WEB_DIST: webDir });
    user = await buildUser(server.api);
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  const count = async (table: string) =>
    Number((await server.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);

  it("answers a malformed %-escape in an API path with 400 and says so", async () => {
    const paths: [string, string][] = [
      ["GET", "/api/session/%E0%A4%A"],
      ["GET", "/api/auth/user/%ZZ"],
      ["PUT", "/api/auth/user/%ZZ"],
      ["POST", "/api/session/%E0%A4%A/git"],
    ];
    for (const [method, pathname] of paths) {
      const json = method === "GET" ? undefined : { name: "x" };
      const res = await server.api.call(method, pathname, { token: user.token, json });
      expect(res.status, pathname).toBe(400);
      expect(res.body).toEqual({ code: "bad_request", message: "The address has a malformed %-escape" });
    }
  });

  it("serves the web build for malformed escapes outside the API, and 4xx for a bad asset path", async () => {
    for (const pathname of ["/%ZZ", "/code-editor-dashboard/%E0%A4%A", "/images/%E0", "/docs/%"]) {
      const res = await fetch(`${server.url}${pathname}`);
      expect(res.status, pathname).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    const badAsset = await server.api.get("/assets/%E0%A4%A.js");
    expect(badAsset.status).toBe(400);
    const missing = await server.api.get("/assets/app-1.js.map");
    expect(missing).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect((await fetch(`${server.url}/assets/app-1.js`)).status).toBe(200);
  });

  it("refuses NUL in any text field with a message naming it, storing nothing", async () => {
    const { host, sessionId } = await buildSession(server.api);
    const [users, sessions] = [await count("users"), await count("sessions")];
    const cases: [string, string, Record<string, unknown>, string, string?][] = [
      ["POST", "/api/auth/register", { name: "nul\0", email: "nul@example.test", password: "pw" }, "name"],
      ["POST", "/api/auth/login", { email: user.user.email, password: "a\0" }, "password"],
      ["POST", "/api/session/create", { title: "t\0" }, "title", user.token],
      ["POST", "/api/session/join", { session_id: `${sessionId}\0` }, "session_id", user.token],
      ["PUT", `/api/auth/user/${user.user.id}`, { name: "renamed\0" }, "name", user.token],
      ["POST", `/api/session/${sessionId}/git`, { op: "commit", message: "m\0" }, "message", host.token],
      [
        "POST",
        "/api/v2/execute",
        { language: "js", version: "*", files: [{ content: "\0" }] },
        "files.0.content",
        user.token,
      ],
      ["POST", "/api/session/create", { title: "t", "k\0": 1 }, "k\0", user.token],
    ];
    for (const [method, pathname, json, field, token] of cases) {
      const res = await server.api.call(method, pathname, token ? { json, token } : { json });
      expect(res.status, `${pathname} ${field}`).toBe(400);
      expect(res.body).toEqual({
        code: "invalid_body",
        message: `${field} may not contain the NUL character (\\u0000)`,
      });
    }
    expect([await count("users"), await count("sessions")]).toEqual([users, sessions]);
    const own = await server.api.get(`/api/auth/user/${user.user.id}`, user.token);
    expect((own.body.data as { name: string }).name).toBe(user.user.name);
  });

  it("refuses a body whose Content-Encoding does not decode, and decodes one that does", async () => {
    const sessions = await count("sessions");
    const headers = { ...JSON_TYPE, authorization: `Bearer ${user.token}` };
    const create = (encoding: string, body: Uint8Array | string) =>
      fetch(`${server.url}/api/session/create`, {
        method: "POST",
        headers: { ...headers, "content-encoding": encoding },
        body,
      });
    for (const encoding of ["gzip", "deflate", "br"]) {
      const res = await create(encoding, '{"title":"plain text, not compressed"}');
      expect(res.status, encoding).toBe(400);
      expect(await res.json()).toEqual({
        code: "bad_request",
        message: "Request body does not decode as its Content-Encoding says",
      });
    }
    const unknown = await create("zstd-ish", "{}");
    expect(unknown.status).toBe(415);
    expect(await unknown.json()).toMatchObject({ code: "unsupported_media_type" });
    const notJson = await create("gzip", zlib.gzipSync("{not json"));
    expect(notJson.status).toBe(400);
    expect(await count("sessions")).toBe(sessions);
    const gzipped = await create("gzip", zlib.gzipSync(JSON.stringify({ title: "compressed" })));
    expect(gzipped.status).toBe(201);
  });

  it("answers fractional or non-numeric limits as Piston does, with 400", async () => {
    const res = await server.api.post(
      "/api/v2/execute",
      { language: "javascript", version: "*", files: [{ content: "1" }], run_memory_limit: 50000000.5 },
      user.token,
    );
    expect(res).toMatchObject({
      status: 400,
      body: { message: "If specified, run_memory_limit must be a whole number" },
    });
  });

  it("answers an unexpected failure with a 500 that says nothing internal, logged once under its request id", async () => {
    const { sessionId } = await buildSession(server.api);
    await server.db.exec("ALTER TABLE session_participants RENAME TO session_participants_gone");
    try {
      const res = await server.api.get(`/api/session/${sessionId}`, user.token);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        code: "internal",
        message: "Something went wrong",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const lines = server.logs.filter((line) => line.includes(String(res.body.requestId)));
      expect(lines).toHaveLength(1);
      const logged = JSON.parse(lines[0] ?? "{}");
      expect(logged).toMatchObject({
        level: 50,
        req: { path: `/api/session/${sessionId}` },
        res: { status: 500 },
      });
      expect(logged.err.message).toContain("session_participants");
    } finally {
      await server.db.exec("ALTER TABLE session_participants_gone RENAME TO session_participants");
    }
  });
});
