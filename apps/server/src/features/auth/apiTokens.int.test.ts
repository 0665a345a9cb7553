import { createHash } from "node:crypto";
import { API_TOKEN_LIMITS, API_TOKEN_MESSAGES, CONNECT_ERRORS, PROTOCOL_VERSION } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltUser,
  buildUser,
  DATABASES,
  socketClient,
  startTestServer,
  type TestServer,
} from "../../../test/harness";

const TOKENS = "/api/users/me/tokens";
const hello = { language: "javascript", version: "*", files: [{ content: "console.log('hi')" }] };

/** The socket's connect outcome: "connected" or the refusal's message. */
function tryConnect(url: string, auth: Record<string, unknown>): Promise<string> {
  const socket = socketClient(url, auth);
  return new Promise((resolve) => {
    socket.on("connect", () => {
      socket.close();
      resolve("connected");
    });
    socket.on("connect_error", (error) => {
      socket.close();
      resolve(error.message);
    });
  });
}

describe.each(DATABASES)("personal API tokens on %s", (kind) => {
  let server: TestServer;
  let owner: BuiltUser;
  const create = async (user: BuiltUser, name = "my client") => {
    const res = await server.api.post(TOKENS, { name }, user.token);
    expect(res.status).toBe(201);
    return { id: String(res.body.id), token: String(res.body.token) };
  };
  const remove = (id: string, token?: string) =>
    server.api.call("DELETE", `${TOKENS}/${id}`, token ? { token } : {});

  beforeAll(async () => {
    server = await startTestServer(kind, { RUN_RATE_MAX: "1000" });
    owner = await buildUser(server.api);
  });
  afterAll(() => server.close());

  it("needs a signed-in user to list, create or revoke tokens", async () => {
    expect((await server.api.get(TOKENS)).status).toBe(401);
    expect((await server.api.post(TOKENS, { name: "x" })).status).toBe(401);
    expect((await remove("00000000-0000-0000-0000-000000000000")).status).toBe(401);
    expect((await server.api.get(TOKENS, "forged")).status).toBe(401);
  });

  it("refuses a name that is missing, blank or too long", async () => {
    for (const body of [
      {},
      { name: "   " },
      { name: 5 },
      { name: "x".repeat(API_TOKEN_LIMITS.nameMax + 1) },
    ]) {
      const res = await server.api.post(TOKENS, body, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await server.api.get(TOKENS, owner.token)).body.tokens).toEqual([]);
  });

  it("shows the secret once, lists tokens without it, and keeps only its sha256", async () => {
    const user = await buildUser(server.api);
    const res = await server.api.post(TOKENS, { name: "  CI runner " }, user.token);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "CI runner",
      token: expect.stringMatching(/^ens_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const secret = String(res.body.token);
    const list = await server.api.get(TOKENS, user.token);
    expect(list.status).toBe(200);
    expect(list.body.tokens).toEqual([
      { id: res.body.id, name: "CI runner", createdAt: res.body.createdAt, lastUsedAt: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const rows = await server.db.query<Record<string, unknown>>("SELECT * FROM api_tokens WHERE id = $1", [
      res.body.id,
    ]);
    expect(rows[0]?.token_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(secret.slice(4));
    // Another account sees none of them.
    expect((await server.api.get(TOKENS, owner.token)).body.tokens).toEqual([]);
  });

  it("runs code through the execute API with the token, as Bearer or bare, counted as its owner's", async () => {
    const { token } = await create(owner);
    const bearer = await server.api.post("/api/v2/execute", hello, token);
    expect(bearer.status).toBe(200);
    expect(bearer.body.run).toMatchObject({ stdout: "hi\n", code: 0 });
    const bare = await server.api.call("POST", "/api/v2/execute", {
      json: hello,
      headers: { authorization: token },
    });
    expect(bare.status).toBe(200);
    const runtimes = await server.api.call("GET", "/api/v2/runtimes", { headers: { authorization: token } });
    expect(runtimes.status).toBe(200);
    const listed = await server.api.get(TOKENS, owner.token);
    expect(listed.body.tokens).toEqual([expect.objectContaining({ lastUsedAt: expect.any(String) })]);
    const forged = await server.api.post("/api/v2/execute", hello, `${token.slice(0, -2)}xx`);
    expect(forged.status).toBe(401);
    const garbage = await server.api.call("POST", "/api/v2/execute", {
      json: hello,
      headers: { authorization: "Basic a b" },
    });
    expect(garbage.status).toBe(401);
  });

  it("authorizes nothing but the execute API: every other route and the socket refuse it", async () => {
    const { id, token } = await create(await buildUser(server.api));
    const refusals = [
      await server.api.get("/api/getuser", token),
      await server.api.get(TOKENS, token),
      await server.api.post(TOKENS, { name: "more" }, token),
      await remove(id, token),
      await server.api.post("/api/auth/logout-all", {}, token),
      await server.api.post("/api/session/create", { title: "t" }, token),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(API_TOKEN_MESSAGES.onlyExecute);
    }
    expect(await tryConnect(server.url, { protocolVersion: PROTOCOL_VERSION, token })).toBe(
      CONNECT_ERRORS.invalidToken,
    );
  });

  it("revokes a token of one's own only; a revoked token runs nothing", async () => {
    const { id, token } = await create(owner, "to revoke");
    const stranger = await buildUser(server.api);
    expect((await remove(id, stranger.token)).status).toBe(404);
    expect((await remove("not-a-uuid", owner.token)).status).toBe(404);
    expect((await server.api.post("/api/v2/execute", hello, token)).status).toBe(200);
    expect((await remove(id, owner.token)).status).toBe(204);
    expect((await remove(id, owner.token)).status).toBe(404);
    expect((await server.api.post("/api/v2/execute", hello, token)).status).toBe(401);
    const left = (await server.api.get(TOKENS, owner.token)).body.tokens as { id: string }[];
    expect(left.map((t) => t.id)).not.toContain(id);
  });

  it(`holds at most ${API_TOKEN_LIMITS.perUser} tokens per account`, async () => {
    const user = await buildUser(server.api);
    for (let i = 0; i < API_TOKEN_LIMITS.perUser; i++) await create(user, `t${i}`);
    const res = await server.api.post(TOKENS, { name: "one more" }, user.token);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(API_TOKEN_MESSAGES.tooMany);
  });
});

describe("an API token's runs count against its owner", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("embedded", { RUN_RATE_MAX: "2" });
  });
  afterAll(() => server.close());

  it("shares the owner's run rate with their sign-in token", async () => {
    const user = await buildUser(server.api);
    const created = await server.api.post(TOKENS, { name: "rate" }, user.token);
    const token = String(created.body.token);
    expect((await server.api.post("/api/v2/execute", hello, user.token)).status).toBe(200);
    expect((await server.api.post("/api/v2/execute", hello, token)).status).toBe(200);
    const third = await server.api.post("/api/v2/execute", hello, token);
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another user's budget is their own.
    const other = await buildUser(server.api);
    expect((await server.api.post("/api/v2/execute", hello, other.token)).status).toBe(200);
  });
});
