import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGithub } from "../../../test/fakeGithub";
import { DATABASES, startTestServer, type TestServer, uniqueName } from "../../../test/harness";

const CLIENT = { clientId: "test-client", clientSecret: "test-client-secret" };

/** Follows our redirect to the fake GitHub, which approves and sends the browser back. */
async function startLogin(server: TestServer) {
  const start = await server.api.get("/api/auth/github");
  expect(start.status).toBe(302);
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const approve = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
  const back = new URL(approve.headers.get("location") ?? "");
  return { cookie, back };
}

function callbackParams(location: string | null) {
  const url = new URL(location ?? "", "http://x");
  expect(url.pathname).toBe("/auth/callback");
  return url.searchParams;
}

describe.each(DATABASES)("GitHub login on %s", (kind) => {
  let github: Awaited<ReturnType<typeof startFakeGithub>>;
  let server: TestServer;
  beforeAll(async () => {
    github = await startFakeGithub({ ...CLIENT, user: { id: 1, login: "octo", email: null } });
    server = await startTestServer(kind, {
      GITHUB_CLIENT_ID: CLIENT.clientId,
      GITHUB_CLIENT_SECRET: CLIENT.clientSecret,
      GITHUB_OAUTH_URL: github.url,
      GITHUB_API_URL: github.url,
    });
  });
  afterAll(async () => {
    await server.close();
    await github.close();
  });

  it("is advertised by /api/auth/providers", async () => {
    expect((await server.api.get("/api/auth/providers")).body).toEqual({ github: true });
  });

  it("signs a new GitHub user in, creating the account once, and redirects with a token", async () => {
    const login = uniqueName("octo");
    github.state.user = {
      id: Math.floor(Math.random() * 1e9),
      login,
      email: null,
      emails: [{ email: `${login}@example.test`, primary: true, verified: true }],
    };
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { cookie, back } = await startLogin(server);
      expect(back.pathname).toBe("/api/auth/github/callback");
      const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
      expect(done.status).toBe(302);
      const token = callbackParams(done.headers.get("location")).get("token");
      expect(token).toBeTruthy();
      tokens.push(String(token));
    }
    const me = await server.api.get("/api/getuser", tokens[0]);
    expect(me.body).toMatchObject({ name: login, email: `${login}@example.test` });
    expect((await server.api.get("/api/getuser", tokens[1])).body.id).toBe(me.body.id);
  });

  it("refuses a callback whose state does not match the cookie", async () => {
    const { back } = await startLogin(server);
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, {
      headers: { cookie: "ensemble_oauth_state=forged" },
    });
    expect(callbackParams(done.headers.get("location")).get("error")).toMatch(/expired or was tampered/);
  });

  it("reports GitHub's refusal of a bad code", async () => {
    const { cookie, back } = await startLogin(server);
    back.searchParams.set("code", "not-a-code");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(callbackParams(done.headers.get("location")).get("error")).toBe(
      "The code passed is incorrect or expired.",
    );
  });

  it("passes on a denial by the user", async () => {
    const done = await server.api.get(
      "/api/auth/github/callback?error=access_denied&error_description=Denied+by+user",
    );
    expect(callbackParams(done.headers.get("location")).get("error")).toBe("Denied by user");
  });
});

describe("GitHub login when not configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(() => server.close());

  it("is hidden and its routes answer 404", async () => {
    expect((await server.api.get("/api/auth/providers")).body).toEqual({ github: false });
    const res = await server.api.get("/api/auth/github");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("oauth_disabled");
  });
});
