import { randomBytes } from "node:crypto";
import { AUTH_MESSAGES, SESSION_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, uniqueName } from "../test/harness";

/** A fresh client address, as the proxy in front of us would report it. */
const newAddress = () => `2001:db8::${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;

// The limits count in the limiter, not the database: one database kind is enough.
describe("limits per address on signing up and on sessions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("postgres", {
      TRUST_PROXY: "true",
      REGISTER_MAX_PER_ADDRESS: "2",
      SESSION_CREATE_MAX_PER_ADDRESS: "2",
      SESSION_JOIN_MAX_PER_ADDRESS: "2",
    });
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown, address: string, token?: string) =>
    server.api.call("POST", path, {
      json,
      headers: { "x-forwarded-for": address, ...(token && { authorization: `Bearer ${token}` }) },
    });
  const count = async (sql: string, params: unknown[]) =>
    (await server.db.query<{ n: number }>(sql, params))[0]?.n;

  /** A user signed up from an address of its own (the sign-up limit is low here). */
  async function newUser() {
    const name = uniqueName();
    const res = await post(
      "/api/auth/register",
      { name, email: `${name}@example.test`, password: "pa55word!" },
      newAddress(),
    );
    expect(res.status).toBe(201);
    return { token: String(res.body.token), id: String((res.body.user as { id: string }).id) };
  }

  function expectRefused(
    res: { status: number; body: Record<string, unknown>; headers: Headers },
    message: string,
  ) {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: "rate_limited", message });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  }

  it("refuses a third sign-up from one address with 429 and creates nothing; another address signs up", async () => {
    const address = newAddress();
    const signUp = (name: string, from = address) =>
      post("/api/auth/register", { name, email: `${name}@example.test`, password: "pa55word!" }, from);
    for (let i = 0; i < 2; i++) expect((await signUp(uniqueName("signup"))).status).toBe(201);
    const name = uniqueName("refused");
    expectRefused(await signUp(name), AUTH_MESSAGES.tooManySignUps);
    expect(await count("SELECT count(*)::int AS n FROM users WHERE name = $1", [name])).toBe(0);
    expect((await signUp(name, newAddress())).status).toBe(201);
  });

  it("refuses a third session creation from one address with 429 and creates nothing", async () => {
    const host = await newUser();
    const address = newAddress();
    for (let i = 0; i < 2; i++) {
      expect((await post("/api/session/create", { title: "ok" }, address, host.token)).status).toBe(201);
    }
    const title = uniqueName("refused");
    expectRefused(
      await post("/api/session/create", { title }, address, host.token),
      SESSION_MESSAGES.tooManyRequests,
    );
    expect(await count("SELECT count(*)::int AS n FROM sessions WHERE title = $1", [title])).toBe(0);
    expect((await post("/api/session/create", { title }, newAddress(), host.token)).status).toBe(201);
  });

  it("refuses a third join from one address with 429 and adds nobody", async () => {
    const host = await newUser();
    const created = await post("/api/session/create", { title: "joinable" }, newAddress(), host.token);
    const sessionId = String(created.body.session_id);
    const address = newAddress();
    for (let i = 0; i < 2; i++) {
      const guest = await newUser();
      expect((await post("/api/session/join", { session_id: sessionId }, address, guest.token)).status).toBe(
        200,
      );
    }
    const late = await newUser();
    expectRefused(
      await post("/api/session/join", { session_id: sessionId }, address, late.token),
      SESSION_MESSAGES.tooManyRequests,
    );
    const isParticipant =
      "SELECT count(*)::int AS n FROM session_participants WHERE session_id = $1 AND user_id = $2";
    expect(await count(isParticipant, [sessionId, late.id])).toBe(0);
    expect(
      (await post("/api/session/join", { session_id: sessionId }, newAddress(), late.token)).status,
    ).toBe(200);
    expect(await count(isParticipant, [sessionId, late.id])).toBe(1);
  });
});
