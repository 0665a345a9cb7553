import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubSignInEnv, startFakeGithub, TEST_GITHUB_CLIENT } from "../../../test/fakeGithub";
import { DATABASES, startTestServer, type TestServer, uniqueName } from "../../../test/harness";

const CLIENT = TEST_GITHUB_CLIENT;

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
    server = await startTestServer(kind, githubSignInEnv(github.url));
  });
  afterAll(async () => {
    await server.close();
    await github.close();
  });

  it("is advertised by /api/auth/providers", async () => {
    expect((await server.api.get("/api/auth/providers")).body).toEqual({ github: true });
  });

  /** Logs in through the fake GitHub to the callback's redirect; returns the browser's cookie too. */
  async function loginToCallback() {
    const { cookie, back } = await startLogin(server);
    expect(back.pathname).toBe("/api/auth/github/callback");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(done.status).toBe(302);
    const location = done.headers.get("location") ?? "";
    return { cookie, location, code: callbackParams(location).get("code") ?? "" };
  }

  const exchange = (code: string, cookie?: string) =>
    server.api.call("POST", "/api/auth/github/exchange", {
      json: { code },
      ...(cookie !== undefined && { headers: { cookie } }),
    });

  function newGithubUser(prefix: string) {
    const login = uniqueName(prefix);
    github.state.user = {
      id: Math.floor(Math.random() * 1e9),
      login,
      email: null,
      emails: [{ email: `${login}@example.test`, primary: true, verified: true }],
    };
    return login;
  }

  it("signs a new GitHub user in, creating the account once, with a one-time code the page exchanges", async () => {
    const login = newGithubUser("octo");
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { cookie, location, code } = await loginToCallback();
      expect(code).toMatch(/^[\w-]{43}$/);
      expect(callbackParams(location).has("token")).toBe(false);
      const res = await exchange(code, cookie);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user: { name: login }, message: "Login successful" });
      expect(JSON.stringify(res.headers.getSetCookie())).toContain("ensemble_oauth_state=;");
      tokens.push(String(res.body.token));
      expect(location).not.toContain(String(res.body.token));
    }
    const me = await server.api.get("/api/getuser", tokens[0]);
    expect(me.body).toMatchObject({ name: login, email: `${login}@example.test` });
    expect((await server.api.get("/api/getuser", tokens[1])).body.id).toBe(me.body.id);
    const rows = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM oauth_login_codes");
    expect(rows[0]?.n).toBe(0);
  });

  it("exchanges a code once: a replay signs nobody in", async () => {
    newGithubUser("replay");
    const { cookie, code } = await loginToCallback();
    expect((await exchange(code, cookie)).status).toBe(200);
    const replay = await exchange(code, cookie);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ code: "unauthenticated", message: "Authentication failed" });
  });

  it("exchanges a code only with the state cookie of the browser that started the login", async () => {
    newGithubUser("victim");
    const attacker = await loginToCallback();
    // The victim's browser started a login of its own, or none at all.
    const victimCookie = (await startLogin(server)).cookie;
    for (const cookie of [victimCookie, undefined, "ensemble_oauth_state=forged"]) {
      const res = await exchange(attacker.code, cookie);
      expect(res.status).toBe(401);
      expect(res.body.token).toBeUndefined();
    }
    // A cookie that does not decode is no cookie: a refusal, not a 500.
    expect((await exchange(attacker.code, "ensemble_oauth_state=%E0%A4%A")).status).toBe(401);
    // A try from another browser burns the code: even its own browser cannot use it now.
    expect((await exchange(attacker.code, attacker.cookie)).status).toBe(401);
  });

  it("refuses an expired code", async () => {
    newGithubUser("late");
    const { cookie, code } = await loginToCallback();
    await server.db.query("UPDATE oauth_login_codes SET expires_at = now() - interval '1 second'");
    expect((await exchange(code, cookie)).status).toBe(401);
  });

  it("answers 400 for an exchange without a code", async () => {
    const res = await server.api.call("POST", "/api/auth/github/exchange", { json: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Code is required");
  });

  it("hands the Git panel a token that can push, sealed in the editor address's fragment for this browser only", async () => {
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
    expect([...fragment.keys()]).toEqual(["githubCode"]);
    const code = fragment.get("githubCode") ?? "";
    const open = (withCookie?: string) =>
      server.api.call("POST", "/api/auth/github/consent", {
        json: { code },
        ...(withCookie !== undefined && { headers: { cookie: withCookie } }),
      });
    // Another browser (another state, or none) gets nothing from the link.
    for (const other of [(await startLogin(server)).cookie, undefined]) {
      const refused = await open(other);
      expect(refused.status).toBe(401);
      expect(refused.body.token).toBeUndefined();
    }
    const res = await open(cookie);
    expect(res.status).toBe(200);
    expect(res.body.login).toBe(login);
    const token = String(res.body.token);
    expect(done.headers.get("location")).not.toContain(token);
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

  it("answers the Git panel's refusals as codes in the fragment", async () => {
    const { back } = await startLogin(server, "/api/auth/github?for=git&session=some-session");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, {
      headers: { cookie: "ensemble_oauth_git_session=some-session; ensemble_oauth_state=forged" },
    });
    expect(done.headers.get("location")).toBe(
      "/code-editor-dashboard/some-session#githubError=state_mismatch",
    );
  });

  it("refuses a callback whose state does not match the cookie, or comes without one", async () => {
    const { back } = await startLogin(server);
    for (const cookie of ["ensemble_oauth_state=forged", "", "ensemble_oauth_state=%ZZ"]) {
      const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
      expect(Object.fromEntries(callbackParams(done.headers.get("location")))).toEqual({
        error: "state_mismatch",
      });
    }
  });

  it("reports GitHub's refusal of a bad code as a code, without GitHub's text", async () => {
    const { cookie, back } = await startLogin(server);
    back.searchParams.set("code", "not-a-code");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(done.headers.get("location")).toBe("/auth/callback?error=github_failed");
  });

  it("passes on a denial by the user as a code, and any other error as another", async () => {
    const denied = await server.api.get(
      "/api/auth/github/callback?error=access_denied&error_description=Denied+by+user",
    );
    expect(denied.headers.get("location")).toBe("/auth/callback?error=access_denied");
    const other = await server.api.get("/api/auth/github/callback?error=Your+account+was+hacked");
    expect(other.headers.get("location")).toBe("/auth/callback?error=github_failed");
  });
});

describe("GitHub login when not configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("embedded");
  });
  afterAll(() => server.close());

  it("is hidden and its routes answer 404", async () => {
    expect((await server.api.get("/api/auth/providers")).body).toEqual({ github: false });
    const res = await server.api.get("/api/auth/github");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("oauth_disabled");
  });
});
