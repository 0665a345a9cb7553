import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGithub } from "../../../test/fakeGithub";
import { DATABASES, startTestServer, type TestServer, uniqueName } from "../../../test/harness";

const CLIENT = { clientId: "test-client", clientSecret: "test-client-secret" };

/** Follows our redirect to the fake GitHub, which approves and sends the browser back. */
async function startLogin(server: TestServer, route = "/api/auth/github") {
  const start = await server.api.get(route);
  expect(start.status).toBe(302);
  const cookie = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c?.endsWith("="))
    .join("; ");
  const consent = new URL(start.headers.get("location") ?? "");
  const approve = await fetch(consent, { redirect: "manual" });
  const back = new URL(approve.headers.get("location") ?? "");
  return { cookie, back, scope: consent.searchParams.get("scope") };
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

  it("hands the Git panel a token that can push, in the editor address's fragment, without signing in", async () => {
    const login = uniqueName("pusher");
    github.state.user = { id: Math.floor(Math.random() * 1e9), login, email: `${login}@example.test` };
    const sessionId = "some-session_id";
    const { cookie, back, scope } = await startLogin(server, `/api/auth/github?for=git&session=${sessionId}`);
    expect(scope?.split(" ")).toContain("repo");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get("location") ?? "", "http://x");
    expect(location.pathname).toBe(`/code-editor-dashboard/${sessionId}`);
    expect(location.search).toBe("");
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get("githubLogin")).toBe(login);
    const token = fragment.get("githubToken") ?? "";
    // The token is GitHub's own (it works there), and we kept no trace of it.
    const me = await fetch(new URL("/user", github.url), { headers: { authorization: `token ${token}` } });
    expect(((await me.json()) as { login: string }).login).toBe(login);
    const users = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE name = $1",
      [login],
    );
    expect(users[0]?.n).toBe(0);
    expect(server.logs.join("\n")).not.toContain(token);

    // A plain login after it is a login again (the git cookie does not linger).
    const again = await startLogin(server);
    expect(again.scope?.split(" ")).not.toContain("repo");
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
