import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { type AuthResponse, AuthResponseSchema } from "@ensemble/protocol";
import { io as connect, type ManagerOptions } from "socket.io-client";
import msgpackParser from "socket.io-msgpack-parser";
import { afterAll, beforeAll } from "vitest";
import { createApp } from "../src/app";
import { type Db, openDatabase } from "../src/db/index";
import { migrate } from "../src/db/migrate";
import { loadConfig } from "../src/env";
import { createLogger } from "../src/logger";

export type DbKind = "embedded" | "postgres";

/** Both homes of the schema; integration suites run once against each. */
export const DATABASES: DbKind[] = ["embedded", "postgres"];

export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * A migrated database: the embedded PostgreSQL (our own child process on a temporary folder),
 * or a fresh schema on the machine's PostgreSQL;
 * `migrationsDir` (default: ours) chooses the migrations applied.
 */
export async function openTestDb(
  kind: DbKind,
  dataDir?: string,
  migrationsDir?: string,
): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === "embedded") {
    const db = await openDatabase({ dataDir });
    await migrate(db, migrationsDir);
    return { db, drop: () => db.close() };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const db = await openDatabase({ url: TEST_POSTGRES_URL, schema });
  await migrate(db, migrationsDir);
  return {
    db,
    drop: async () => {
      await db.exec(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

/**
 * A database migrated up to, not including, `migration` (a file name of ours, such as
 * `016_language_data.sql`): the schema a migration's test starts from. `migrate(db)` then
 * applies the rest.
 */
export async function openTestDbBefore(kind: DbKind, migration: string) {
  const ours = path.join(import.meta.dirname, "../src/db/migrations");
  const earlier = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-migrations-"));
  try {
    for (const file of await fs.readdir(ours)) {
      if (file < migration) await fs.copyFile(path.join(ours, file), path.join(earlier, file));
    }
    return await openTestDb(kind, undefined, earlier);
  } finally {
    await fs.rm(earlier, { recursive: true, force: true });
  }
}

/**
 * A migrated database for the enclosing `describe`: opened before its tests, dropped after them;
 * the getter gives it to a test.
 */
export function useTestDb(kind: DbKind): () => Db {
  let opened: { db: Db; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await openTestDb(kind);
  });
  afterAll(() => opened?.drop());
  return () => {
    if (!opened) throw new Error("The test database is opened in beforeAll: call this inside a test");
    return opened.db;
  };
}

export interface TestServer {
  url: string;
  db: Db;
  app: ReturnType<typeof createApp>;
  logs: string[];
  api: ReturnType<typeof apiClient>;
  /** The server's DATA_DIR (a temporary folder, removed on close). */
  dataDir: string;
  close(): Promise<void>;
}

/** The real server on 127.0.0.1:0 with a real database; `env` overrides configuration. */
export async function startTestServer(
  kind: DbKind,
  env: Record<string, string> = {},
  existing?: { db: Db },
): Promise<TestServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, "no-web-build"),
    JWT_SECRET: "test-secret-that-is-long-enough-0123456789",
    // Every test signs up and opens sessions from 127.0.0.1; the limits' own tests set them low.
    REGISTER_MAX_PER_ADDRESS: "100000",
    SESSION_CREATE_MAX_PER_ADDRESS: "100000",
    SESSION_JOIN_MAX_PER_ADDRESS: "100000",
    // Tests count the history's rows: the compaction runs only where a test calls it.
    HISTORY_COMPACT_SECONDS: "0",
    ...env,
  });
  const opened = existing ? { db: existing.db, drop: async () => {} } : await openTestDb(kind);
  const logs: string[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    }),
  );
  const jwtSecret = new TextEncoder().encode(config.JWT_SECRET);
  const app = createApp({ config, db: opened.db, logger, jwtSecret });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    db: opened.db,
    app,
    logs,
    api: apiClient(url),
    dataDir,
    async close() {
      await app.close();
      await opened.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResult {
  status: number;
  headers: Headers;
  // Tests read fields of whatever came back; the shape is what they assert.
  body: Record<string, unknown>;
}

/** A tiny JSON client for the API under test. */
export function apiClient(baseUrl: string) {
  async function call(
    method: string,
    pathname: string,
    options: { token?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${baseUrl}${pathname}`, { method, headers, body, redirect: "manual" });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text };
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
  return {
    call,
    get: (p: string, token?: string) => call("GET", p, token ? { token } : {}),
    post: (p: string, json: unknown, token?: string) => call("POST", p, token ? { json, token } : { json }),
    put: (p: string, json: unknown, token?: string) => call("PUT", p, token ? { json, token } : { json }),
  };
}

let sequence = 0;

/** A unique username, so tests never collide, even on a shared database. */
export function uniqueName(prefix = "user"): string {
  sequence += 1;
  return `${prefix}_${Date.now().toString(36)}_${sequence}_${randomBytes(2).toString("hex")}`;
}

export interface BuiltUser extends AuthResponse {
  password: string;
}

/** Registers a fresh user through the API and returns its token, record and password. */
export async function buildUser(
  api: TestServer["api"],
  overrides: Partial<{ name: string; email: string; password: string }> = {},
): Promise<BuiltUser> {
  const name = overrides.name ?? uniqueName();
  const payload = {
    name,
    email: overrides.email ?? `${name}@example.test`,
    password: overrides.password ?? "pa55word!",
  };
  const result = await api.post("/api/auth/register", payload);
  if (result.status !== 201)
    throw new Error(`buildUser failed: ${result.status} ${JSON.stringify(result.body)}`);
  return { ...AuthResponseSchema.parse(result.body), password: payload.password };
}

/** A socket.io client speaking our wire format, on websocket only, without reconnection unless asked. */
export function socketClient(
  url: string,
  auth: Record<string, unknown>,
  options: Partial<ManagerOptions> = {},
) {
  return connect(url, {
    auth,
    transports: ["websocket"],
    reconnection: false,
    parser: msgpackParser,
    ...options,
  });
}

/** A fresh user who hosts a fresh session, created through the API. */
export async function buildSession(api: TestServer["api"], title = "session") {
  const host = await buildUser(api);
  const res = await api.post("/api/session/create", { title }, host.token);
  if (res.status !== 201) throw new Error(`buildSession failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { host, sessionId: String(res.body.session_id) };
}
