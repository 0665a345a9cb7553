import { AUTH_MESSAGES, CONNECT_ERRORS, LIMITS, PROTOCOL_VERSION } from "@ensemble/protocol";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildUser,
  DATABASES,
  socketClient,
  startTestServer,
  type TestServer,
  uniqueName,
} from "../../../test/harness";

const SECRET = new TextEncoder().encode("test-secret-that-is-long-enough-0123456789");

describe.each(DATABASES)("accounts API on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { LOGIN_MAX_PER_ADDRESS: "1000" });
  });
  afterAll(() => server.close());

  describe("POST /api/auth/register", () => {
    it("creates the account and returns a token and the user without its password", async () => {
      const name = uniqueName("reg");
      const res = await server.api.post("/api/auth/register", {
        name: `  ${name} `,
        email: ` ${name}@Example.test `,
        password: "secret",
      });
      expect(res.status).toBe(201);
      expect(res.body.token).toEqual(expect.any(String));
      expect(res.body.user).toMatchObject({ name, email: `${name}@Example.test` });
      expect(JSON.stringify(res.body)).not.toMatch(/secret|password_hash|\$argon2/);
      const rows = await server.db.query<{ password_hash: string }>(
        "SELECT password_hash FROM users WHERE name = $1",
        [name],
      );
      expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    });

    it("refuses a duplicate email or username (any case) with 409 and a clear message", async () => {
      const existing = await buildUser(server.api);
      const sameEmail = await server.api.post("/api/auth/register", {
        name: uniqueName(),
        email: existing.user.email.toUpperCase(),
        password: "x",
      });
      expect(sameEmail.status).toBe(409);
      expect(sameEmail.body.message).toBe(AUTH_MESSAGES.emailTaken);
      const sameName = await server.api.post("/api/auth/register", {
        name: existing.user.name.toUpperCase(),
        email: `${uniqueName()}@example.test`,
        password: "x",
      });
      expect(sameName.status).toBe(409);
      expect(sameName.body.message).toBe(AUTH_MESSAGES.usernameTaken);
    });

    it.each([
      [{ email: "a@b.test", password: "x" }, "Username is required"],
      [{ name: "   ", email: "a@b.test", password: "x" }, "Username is required"],
      [{ name: "n1", password: "x" }, "Email is required"],
      [{ name: "n1", email: "not-an-email", password: "x" }, "Email is not a valid address"],
      [{ name: "n1", email: "a@b.test" }, "Password is required"],
      [{ name: "n1", email: "a@b.test", password: "" }, "Password is required"],
      [
        { name: "x".repeat(LIMITS.usernameMax + 1), email: "a@b.test", password: "x" },
        "Username must be at most",
      ],
      // Login would read it as an email: it could block the person whose email it spells.
      [{ name: "alice@x.test", email: "a@b.test", password: "x" }, "Username cannot contain '@'"],
    ])("answers 400 for %j", async (payload, message) => {
      const before = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
      const res = await server.api.post("/api/auth/register", payload);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_body" });
      expect(String(res.body.message)).toContain(message);
      const after = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
      expect(after[0]?.n).toBe(before[0]?.n);
    });

    it("answers 415 for a body that is not JSON and 413 for an oversized one", async () => {
      const form = await server.api.call("POST", "/api/auth/register", {
        body: "name=a",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(415);
      const huge = await server.api.post("/api/auth/register", {
        name: "big",
        email: "big@example.test",
        password: "x".repeat(LIMITS.jsonBodyBytes),
      });
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe("payload_too_large");
    });
  });

  describe("POST /api/auth/login", () => {
    it("signs in by email or by username, in any case", async () => {
      const user = await buildUser(server.api);
      for (const login of [user.user.email, user.user.name.toUpperCase()]) {
        const res = await server.api.post("/api/auth/login", { email: login, password: user.password });
        expect(res.status).toBe(200);
        expect(res.body.user).toMatchObject({ id: user.user.id, name: user.user.name });
        const me = await server.api.get("/api/getuser", String(res.body.token));
        expect(me.body.id).toBe(user.user.id);
      }
    });

    it("gives the same 401 message for a wrong password and an unknown account", async () => {
      const user = await buildUser(server.api);
      const wrong = await server.api.post("/api/auth/login", { email: user.user.email, password: "nope" });
      const unknown = await server.api.post("/api/auth/login", {
        email: "ghost@example.test",
        password: "nope",
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body.message).toBe(AUTH_MESSAGES.badCredentials);
      expect(unknown.body.message).toBe(AUTH_MESSAGES.badCredentials);
    });

    it("answers 400 when a field is missing", async () => {
      const res = await server.api.post("/api/auth/login", { email: "a@b.test" });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Password is required");
    });
  });

  describe("GET /api/getuser", () => {
    it("needs a token", async () => {
      const res = await server.api.get("/api/getuser");
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(AUTH_MESSAGES.noToken);
    });

    it("answers 'Invalid token' for a forged or garbled token", async () => {
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("00000000-0000-0000-0000-000000000000")
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode("some-other-secret-of-enough-length-000"));
      for (const token of ["garbage", forged]) {
        const res = await server.api.get("/api/getuser", token);
        expect(res.status).toBe(401);
        expect(res.body.message).toBe(AUTH_MESSAGES.invalidToken);
      }
    });

    it("answers 'Token expired' for an expired token", async () => {
      const user = await buildUser(server.api);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.user.id)
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(SECRET);
      const res = await server.api.get("/api/getuser", expired);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "token_expired", message: AUTH_MESSAGES.tokenExpired });
    });

    it("returns the caller", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.get("/api/getuser", user.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.user.id, _id: user.user.id, email: user.user.email });
    });
  });

  describe("GET and PUT /api/auth/user/{id}", () => {
    it("needs a token", async () => {
      const user = await buildUser(server.api);
      expect((await server.api.get(`/api/auth/user/${user.user.id}`)).status).toBe(401);
      expect((await server.api.put(`/api/auth/user/${user.user.id}`, { name: "x" })).status).toBe(401);
    });

    it("forbids reading or changing another user's record, and changes nothing", async () => {
      const alice = await buildUser(server.api);
      const bob = await buildUser(server.api);
      const read = await server.api.get(`/api/auth/user/${bob.user.id}`, alice.token);
      expect(read.status).toBe(403);
      expect(JSON.stringify(read.body)).not.toContain(bob.user.email);
      const write = await server.api.put(
        `/api/auth/user/${bob.user.id}`,
        { name: uniqueName() },
        alice.token,
      );
      expect(write.status).toBe(403);
      expect((await server.api.get("/api/getuser", bob.token)).body.name).toBe(bob.user.name);
    });

    it("reads one's own record as { success, data }", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.get(`/api/auth/user/${user.user.id}`, user.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { name: user.user.name, email: user.user.email },
      });
    });

    it("changes only the fields sent, and a new password works at the next login", async () => {
      const user = await buildUser(server.api);
      const name = uniqueName("renamed");
      const res = await server.api.put(
        `/api/auth/user/${user.user.id}`,
        { name, password: "n3w" },
        user.token,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { name, email: user.user.email } });
      const oldLogin = await server.api.post("/api/auth/login", {
        email: user.user.email,
        password: user.password,
      });
      expect(oldLogin.status).toBe(401);
      const newLogin = await server.api.post("/api/auth/login", { email: name, password: "n3w" });
      expect(newLogin.status).toBe(200);
    });

    it("refuses an empty change, a bad email and a taken name", async () => {
      const user = await buildUser(server.api);
      const other = await buildUser(server.api);
      const empty = await server.api.put(`/api/auth/user/${user.user.id}`, {}, user.token);
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe("Nothing to update");
      const bad = await server.api.put(`/api/auth/user/${user.user.id}`, { email: "nope" }, user.token);
      expect(bad.status).toBe(400);
      const taken = await server.api.put(
        `/api/auth/user/${user.user.id}`,
        { name: other.user.name },
        user.token,
      );
      expect(taken.status).toBe(409);
      expect(taken.body.message).toBe(AUTH_MESSAGES.usernameTaken);
      expect((await server.api.get("/api/getuser", user.token)).body.name).toBe(user.user.name);
    });

    it("refuses a new username with '@' and changes nothing", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.put(`/api/auth/user/${user.user.id}`, { name: "a@b.test" }, user.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Username cannot contain '@'");
      expect((await server.api.get("/api/getuser", user.token)).body.name).toBe(user.user.name);
    });

    it("lets a user keep their own name and email unchanged", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.put(
        `/api/auth/user/${user.user.id}`,
        { name: user.user.name, email: user.user.email },
        user.token,
      );
      expect(res.status).toBe(200);
    });
  });

  describe("token versions", () => {
    const login = async (user: { user: { email: string } }, password: string) => {
      const res = await server.api.post("/api/auth/login", { email: user.user.email, password });
      expect(res.status).toBe(200);
      return String(res.body.token);
    };

    it("a password change ends every earlier token and answers a fresh one that works", async () => {
      const user = await buildUser(server.api);
      const elsewhere = await login(user, user.password);
      const res = await server.api.put(
        `/api/auth/user/${user.user.id}`,
        { password: "n3w-pass" },
        user.token,
      );
      expect(res.status).toBe(200);
      const fresh = String(res.body.token);
      for (const old of [user.token, elsewhere]) {
        const refused = await server.api.get("/api/getuser", old);
        expect(refused.status).toBe(401);
        expect(refused.body.message).toBe(AUTH_MESSAGES.invalidToken);
      }
      expect((await server.api.get("/api/getuser", fresh)).body.id).toBe(user.user.id);
      expect((await server.api.get("/api/getuser", await login(user, "n3w-pass"))).status).toBe(200);
    });

    it("a change of name or email alone keeps the tokens and answers none", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.put(`/api/auth/user/${user.user.id}`, { name: uniqueName() }, user.token);
      expect(res.status).toBe(200);
      expect(res.body.token).toBeUndefined();
      expect((await server.api.get("/api/getuser", user.token)).status).toBe(200);
    });

    it("sign out everywhere ends every token of the caller, and only theirs; the socket refuses them too", async () => {
      const user = await buildUser(server.api);
      const elsewhere = await login(user, user.password);
      const other = await buildUser(server.api);
      expect((await server.api.post("/api/auth/logout-all", {})).status).toBe(401);
      const res = await server.api.post("/api/auth/logout-all", {}, elsewhere);
      expect(res.status).toBe(200);
      for (const old of [user.token, elsewhere]) {
        expect((await server.api.get("/api/getuser", old)).status).toBe(401);
        expect((await server.api.post("/api/auth/logout-all", {}, old)).status).toBe(401);
      }
      expect((await server.api.get("/api/getuser", other.token)).status).toBe(200);
      const socket = socketClient(server.url, { token: user.token, protocolVersion: PROTOCOL_VERSION });
      const refusal = await new Promise<Error>((resolve) => socket.on("connect_error", resolve));
      socket.close();
      expect(refusal.message).toBe(CONNECT_ERRORS.invalidToken);
      expect((await server.api.get("/api/getuser", await login(user, user.password))).status).toBe(200);
    });

    it("ends the live connections of the ended tokens: another device's, after a password change", async () => {
      const user = await buildUser(server.api);
      const other = await buildUser(server.api);
      const open = async (token: string) => {
        const socket = socketClient(server.url, { token, protocolVersion: PROTOCOL_VERSION });
        await new Promise<void>((resolve, reject) => {
          socket.on("connect", resolve);
          socket.on("connect_error", reject);
        });
        return socket;
      };
      const [mine, theirs] = [await open(user.token), await open(other.token)];
      const ended = new Promise<string>((resolve) => mine.on("disconnect", resolve));
      const res = await server.api.put(
        `/api/auth/user/${user.user.id}`,
        { password: "n3w-pass" },
        user.token,
      );
      expect(res.status).toBe(200);
      expect(await ended).toBe("io server disconnect");
      // Another user's connection stays: it still gets answers after the change was handled.
      const answer = await theirs.timeout(5000).emitWithAck("noSuchEvent", {});
      expect(answer).toMatchObject({ ok: false, error: { code: "unknown_event" } });
      expect(theirs.connected).toBe(true);
      const fresh = await open(String(res.body.token));
      expect(fresh.connected).toBe(true);
      for (const socket of [mine, theirs, fresh]) socket.close();
    });

    it("refuses a token that claims a version the user does not have", async () => {
      const user = await buildUser(server.api);
      const forged = await new SignJWT({ ver: 7 })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.user.id)
        .setExpirationTime("1h")
        .sign(SECRET);
      expect((await server.api.get("/api/getuser", forged)).status).toBe(401);
      // A token from before versions (no claim) is version 0, every user's first.
      const legacy = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.user.id)
        .setExpirationTime("1h")
        .sign(SECRET);
      expect((await server.api.get("/api/getuser", legacy)).status).toBe(200);
    });
  });

  it("never writes passwords or tokens to the logs", async () => {
    const user = await buildUser(server.api, { password: "very-secret-password-123" });
    await server.api.post("/api/auth/login", {
      email: user.user.email,
      password: "very-secret-password-123",
    });
    await server.api.get("/api/getuser", user.token);
    await server.api.get(`/api/auth/github/callback?code=abc&state=def&token=${user.token}`);
    const logs = server.logs.join("\n");
    expect(logs).toContain("/api/auth/login");
    expect(logs).not.toContain("very-secret-password-123");
    expect(logs).not.toContain(user.token);
  });
});
