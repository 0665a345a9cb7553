import { randomBytes } from "node:crypto";
import { AUTH_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BuiltUser,
  buildUser,
  startTestServer,
  type TestServer,
  uniqueName,
} from "../../../test/harness";

const THROTTLE = {
  TRUST_PROXY: "true",
  LOGIN_FREE_FAILURES: "3",
  LOGIN_MAX_PER_ACCOUNT: "12",
  LOGIN_MAX_PER_ADDRESS: "1000",
};
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A fresh client address, as the proxy in front of us would report it (Redis outlives a run). */
const newAddress = () =>
  `2001:db8::${randomBytes(6)
    .toString("hex")
    .replace(/(....)(?=.)/g, "$1:")}`;

const loginAt = (target: TestServer, identifier: string, password: string, address: string) =>
  target.api.call("POST", "/api/auth/login", {
    json: { email: identifier, password },
    headers: { "x-forwarded-for": address },
  });

function retryAfter(res: { status: number; headers: Headers }) {
  expect(res.status).toBe(429);
  return Number(res.headers.get("retry-after"));
}

// The throttle counts in the limiter, not the database: one database kind is enough.
describe.each([
  ["memory", {}],
  ["Redis", { REDIS_URL }],
])("login throttling, counted in %s", (_store, env) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer("postgres", { ...THROTTLE, ...env });
    await server.app.limiters.ready();
  });
  afterAll(() => server.close());

  const login = (identifier: string, password: string, address: string) =>
    loginAt(server, identifier, password, address);

  async function fail(user: BuiltUser, address: string, identifier = user.user.email) {
    expect((await login(identifier, "wrong", address)).status).toBe(401);
  }

  it("ten wrong passwords from one address do not keep the owner out at theirs", async () => {
    const owner = await buildUser(server.api);
    const attacker = newAddress();
    for (let i = 0; i < 10; i++) await login(owner.user.email, "wrong", attacker);
    expect((await login(owner.user.email, owner.password, attacker)).status).toBe(429);
    const res = await login(owner.user.email, owner.password, newAddress());
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: owner.user.id });
  });

  it("slows one address's guesses at one account with waits that double, even for the right password", async () => {
    const owner = await buildUser(server.api);
    const address = newAddress();
    for (let i = 0; i < 3; i++) await fail(owner, address);
    expect((await login(owner.user.email, owner.password, address)).status).toBe(200);
    // The success started the pair afresh: three more failures are free, then the waits grow.
    for (let i = 0; i < 3; i++) await fail(owner, address);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await fail(owner, address);
      const refused = await login(owner.user.email, owner.password, address);
      expect(refused.body.message).toBe(AUTH_MESSAGES.tooManyLogins);
      const wait = retryAfter(refused);
      waits.push(wait);
      if (i < 2) await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
    }
    expect(waits).toEqual([1, 2, 4]);
  });

  it("counts an account's username and email as one", async () => {
    const owner = await buildUser(server.api);
    const address = newAddress();
    await fail(owner, address, owner.user.name);
    await fail(owner, address, owner.user.email.toUpperCase());
    await fail(owner, address, owner.user.name.toUpperCase());
    await fail(owner, address, owner.user.email);
    expect(retryAfter(await login(owner.user.name, owner.password, address))).toBe(1);
    expect(retryAfter(await login(owner.user.email, owner.password, address))).toBe(1);
  });

  it("counts an unknown identifier like an account, so a refusal tells nothing", async () => {
    const address = newAddress();
    const nobody = `${uniqueName("nobody")}@example.test`;
    for (let i = 0; i < 4; i++) expect((await login(nobody, "wrong", address)).status).toBe(401);
    expect(retryAfter(await login(nobody, "wrong", address))).toBe(1);
  });

  it("slows guesses spread over many addresses, except at an address the owner signed in from", async () => {
    const owner = await buildUser(server.api);
    const home = newAddress();
    expect((await login(owner.user.name, owner.password, home)).status).toBe(200);
    // One failure from each of 13 addresses: past the account's 12, every unknown address waits.
    for (let i = 0; i < 13; i++) await fail(owner, newAddress());
    expect(retryAfter(await login(owner.user.email, owner.password, newAddress()))).toBe(1);
    const res = await login(owner.user.email, owner.password, home);
    expect(res.status).toBe(200);
  });
});

describe("login throttling across nodes sharing Redis", () => {
  let nodes: TestServer[];
  beforeAll(async () => {
    const first = await startTestServer("postgres", { ...THROTTLE, REDIS_URL });
    nodes = [first, await startTestServer("postgres", { ...THROTTLE, REDIS_URL }, { db: first.db })];
    await Promise.all(nodes.map((node) => node.app.limiters.ready()));
  });
  afterAll(async () => {
    await nodes[1]?.close();
    await nodes[0]?.close();
  });

  it("a wait earned on one node holds on the other", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const owner = await buildUser(a.api);
    const address = newAddress();
    for (let i = 0; i < 4; i++) {
      expect((await loginAt(i % 2 ? a : b, owner.user.email, "wrong", address)).status).toBe(401);
    }
    expect(retryAfter(await loginAt(b, owner.user.email, owner.password, address))).toBe(1);
    expect(retryAfter(await loginAt(a, owner.user.email, owner.password, address))).toBe(1);
  });
});
