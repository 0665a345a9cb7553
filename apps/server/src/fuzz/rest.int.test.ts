import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ApiErrorSchema } from "@ensemble/protocol";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSession, buildUser, startTestServer, type TestServer } from "../../test/harness";
import { seededRandom } from "../../test/random";
import {
  type FuzzContext,
  type FuzzRequest,
  listRoutes,
  type RouteSpec,
  restFuzzer,
  send,
} from "../../test/restFuzz";
import { writeWebBuild } from "../../test/webBuild";
import type { Db } from "../db/index";

/** Replay a failure with FUZZ_SEED=<the seed it printed>; FUZZ_REQUESTS sets how many. */
const SEED = Number(process.env.FUZZ_SEED ?? 13_013);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 8;
const JWT_SECRET = "fuzz-secret-that-is-long-enough-0123456789";

const required = (...fields: string[]) => fields.map((field) => ({ field, required: true }));
const optional = (...fields: string[]) => fields.map((field) => ({ field, required: false }));

/**
 * Every API route, with the body it takes. A route added to the server and missing here fails
 * the first test: declare its body (or `{}`) so the fuzz knows what would break it.
 */
const API_SPECS = (ctx: FuzzContext): Record<string, RouteSpec> => ({
  "POST /api/auth/register": {
    sample: { name: "fuzz_register", email: "fuzz@example.test", password: "pa55word!" },
    breakable: required("name", "email", "password"),
  },
  "POST /api/auth/login": {
    sample: { email: "fuzz@example.test", password: "pa55word!" },
    breakable: required("email", "password"),
  },
  "GET /api/getuser": {},
  "GET /api/auth/user/:id": {},
  "PUT /api/auth/user/:id": { sample: { name: "renamed" }, breakable: optional("name", "email", "password") },
  "POST /api/auth/logout-all": { actsOnCaller: true },
  "GET /api/auth/user/:id/deletion": {},
  "GET /api/auth/user/:id/export": {},
  // The sample is the fuzz user's real password: every request breaks it, so nothing is deleted.
  "DELETE /api/auth/user/:id": { sample: { password: "pa55word!" }, breakable: required("password") },
  "POST /api/auth/github/exchange": { sample: { code: "x".repeat(43) }, breakable: required("code") },
  "POST /api/auth/github/consent": { sample: { code: "x".repeat(43) }, breakable: required("code") },
  "GET /api/users/me/tokens": {},
  "POST /api/users/me/tokens": { sample: { name: "fuzz client" }, breakable: required("name") },
  "DELETE /api/users/me/tokens/:id": {},
  "GET /api/auth/providers": {},
  "GET /api/auth/github": {},
  "GET /api/auth/github/callback": {},
  "POST /api/session/create": { sample: { title: "fuzzed" }, breakable: required("title") },
  "POST /api/session/join": { sample: { session_id: ctx.sessionId }, breakable: required("session_id") },
  "GET /api/session/:id": {},
  "GET /api/v2/runtimes": {},
  "POST /api/v2/execute": {
    sample: { language: "javascript", version: "*", files: [{ content: "console.log(1)" }] },
    breakable: required("language", "version", "files"),
  },
  "GET /api/health": {},
  "POST /api/session/:id/git": { sample: { op: "status" }, breakable: required("op") },
  "GET /api/users/me/sessions": {},
  // Bodiless, so the host's own token would make them valid requests that change the session;
  // a non-host's refusal is proven in sessions/mySessions.int.test.ts.
  "POST /api/session/:id/end": { actsOnCaller: true },
  "DELETE /api/session/:id": { actsOnCaller: true },
});

/** Paths outside the API that the fuzz also sends to: the web build and socket.io's polling. */
const OTHER_ROUTES = [
  "GET /",
  "GET /code-editor-dashboard/:id",
  "GET /assets/:file",
  "GET /images/:file",
  "GET /socket.io/",
  "POST /socket.io/",
];

/** A digest of every row of every table, so any change anywhere shows. */
async function digestTables(db: Db): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const rows = await db.query<{ d: string }>(
      `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS d FROM "${name}" t`,
    );
    digest[name] = rows[0]?.d ?? "";
  }
  return digest;
}

interface Outcome {
  request: FuzzRequest;
  status: number;
  problem: string;
}

/** Sends `count` fuzzed requests, `CONCURRENCY` at a time; answers the ones that went wrong. */
async function fuzz(server: TestServer, next: () => FuzzRequest, count: number): Promise<Outcome[]> {
  const base = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const bad: Outcome[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const request = next();
      const res = await send(base, agent, request);
      const problem = judge(request, res);
      if (problem) bad.push({ request, status: res.status, problem });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return bad;
}

/** Why an answer is wrong, or undefined: no 5xx, no dropped connection, API errors as `{ code, message }`. */
function judge(
  request: FuzzRequest,
  res: { status: number; contentType: string; body: string },
): string | undefined {
  if (res.status === 0) return `no answer: ${res.body}`;
  if (res.status >= 500) return `server error: ${res.body.slice(0, 200)}`;
  // Node answers a request it cannot parse (431 for huge headers) before Express sees it.
  const isApi = request.path.startsWith("/api");
  if (isApi && res.status >= 400 && res.status !== 431 && request.method !== "HEAD") {
    try {
      if (!ApiErrorSchema.safeParse(JSON.parse(res.body)).success) return `not an API error: ${res.body}`;
    } catch {
      return `not JSON: ${res.body.slice(0, 200)}`;
    }
  }
  return undefined;
}

const describeFailures = (failures: Outcome[]) =>
  failures
    .slice(0, 15)
    .map(
      (f) =>
        `${f.status} ${f.request.method} ${f.request.path.slice(0, 100)} [${f.request.label}] ${f.problem}`,
    )
    .join("\n");

/** Issue 13 item 2: thousands of malformed requests across every route; no 5xx, nothing changed. */
describe(`REST fuzz (seed ${SEED})`, () => {
  let server: TestServer;
  let webDir: string;
  let ctx: FuzzContext;

  async function contextOf(target: TestServer): Promise<FuzzContext> {
    const { host, sessionId } = await buildSession(target.api, "fuzzed session");
    const other = await buildUser(target.api);
    const secret = new TextEncoder().encode(JWT_SECRET);
    const expiredToken = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(host.user.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(secret);
    return {
      token: host.token,
      otherToken: other.token,
      expiredToken,
      userId: host.user.id,
      otherUserId: other.user.id,
      sessionId,
    };
  }

  const serverEnv = (webDir: string) => ({
    WEB_DIST: webDir,
    JWT_SECRET,
    // GitHub login on, pointed at a closed local port: the callback's failures are fuzzed too.
    GITHUB_CLIENT_ID: "fuzz",
    GITHUB_CLIENT_SECRET: "fuzz",
    GITHUB_OAUTH_URL: "http://127.0.0.1:9",
    GITHUB_API_URL: "http://127.0.0.1:9",
  });

  beforeAll(async () => {
    webDir = await writeWebBuild(await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-web-")));
    // Limits far above the fuzz, so it tests validation rather than only meeting 429s.
    server = await startTestServer("postgres", {
      ...serverEnv(webDir),
      LOGIN_MAX_PER_ACCOUNT: "1000000",
      LOGIN_MAX_PER_ADDRESS: "1000000",
      RUN_RATE_MAX: "1000000",
    });
    ctx = await contextOf(server);
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it("knows every API route the server has", async () => {
    // The Express app, as Express hands it to each request (socket.io wraps the server's listener).
    const express = new Promise<unknown>((resolve) =>
      server.app.server.once("request", (req: http.IncomingMessage) => resolve(Reflect.get(req, "app"))),
    );
    await server.api.get("/api/health");
    const routes = listRoutes(await express).filter((r) => r.includes(" /api"));
    expect(routes.sort()).toEqual(Object.keys(API_SPECS(ctx)).sort());
  });

  it(`refuses ${REQUESTS} malformed requests with 4xx, changing nothing`, async () => {
    const specs = API_SPECS(ctx);
    const routes = [...Object.keys(specs), ...OTHER_ROUTES];
    const next = restFuzzer(seededRandom(SEED), specs, ctx);
    const before = await digestTables(server.db);
    const failures = await fuzz(server, () => next(routes), REQUESTS);
    expect(failures.length, `FUZZ_SEED=${SEED}:\n${describeFailures(failures)}`).toBe(0);
    expect((await server.api.get("/api/health")).status).toBe(200);
    expect(await digestTables(server.db), `FUZZ_SEED=${SEED}`).toEqual(before);
  }, 120_000);

  it("refuses them under the default limits too", async () => {
    const limited = await startTestServer("postgres", serverEnv(webDir));
    try {
      const limitedCtx = await contextOf(limited);
      const specs = API_SPECS(limitedCtx);
      const next = restFuzzer(seededRandom(SEED + 1), specs, limitedCtx);
      const before = await digestTables(limited.db);
      const failures = await fuzz(limited, () => next(Object.keys(specs)), 500);
      expect(failures.length, `FUZZ_SEED=${SEED}:\n${describeFailures(failures)}`).toBe(0);
      expect((await limited.api.get("/api/health")).status).toBe(200);
      expect(await digestTables(limited.db)).toEqual(before);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
