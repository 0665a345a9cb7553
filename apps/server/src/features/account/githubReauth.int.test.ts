import { ACCOUNT_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubSignInEnv, startFakeGithub, TEST_GITHUB_CLIENT } from "../../../test/fakeGithub";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const CLIENT = TEST_GITHUB_CLIENT;

/** The `name=value` pairs a response sets (cleared ones left out), as a browser would send them back. */
const cookiesOf = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => !c.endsWith("="));

describe.each(DATABASES)("deleting a GitHub-only account on %s", (kind) => {
  let github: Awaited<ReturnType<typeof startFakeGithub>>;
  let server: TestServer;
  beforeAll(async () => {
    github = await startFakeGithub({ ...CLIENT, user: { id: 9001, login: "octo-delete", email: null } });
    server = await startTestServer(kind, githubSignInEnv(github.url));
  });
  afterAll(async () => {
    await server.close();
    await github.close();
  });

  /** Runs the GitHub round trip from `route` to our callback's redirect, as a browser would. */
  async function roundTrip(route: string) {
    const start = await server.api.get(route);
    expect(start.status).toBe(302);
    const startCookies = cookiesOf(start);
    const approve = await fetch(new URL(start.headers.get("location") ?? ""), { redirect: "manual" });
    const back = new URL(approve.headers.get("location") ?? "");
    const done = await server.api.call("GET", `${back.pathname}${back.search}`, {
      headers: { cookie: startCookies.join("; ") },
    });
    expect(done.status).toBe(302);
    return {
      location: new URL(done.headers.get("location") ?? "", "http://x"),
      cookies: [...startCookies, ...cookiesOf(done)],
    };
  }

  /** Signs the fake GitHub's current user in: their token and id. */
  async function signInWithGithub() {
    const { location, cookies } = await roundTrip("/api/auth/github");
    const res = await server.api.call("POST", "/api/auth/github/exchange", {
      json: { code: location.searchParams.get("code") },
      headers: { cookie: cookies.join("; ") },
    });
    expect(res.status).toBe(200);
    return { token: String(res.body.token), id: (res.body.user as { id: string }).id };
  }

  /** A re-sign-in for a deletion: the code in the account page's fragment, and the reauth cookie. */
  async function reauth() {
    const { location, cookies } = await roundTrip("/api/auth/github?for=delete");
    expect(location.pathname).toBe("/account");
    const code = new URLSearchParams(location.hash.slice(1)).get("deleteCode") ?? "";
    const reauthCookie = cookies.find((c) => c.startsWith("ensemble_reauth_state=")) ?? "";
    expect(code).not.toBe("");
    expect(reauthCookie).not.toBe("");
    return { code, cookie: reauthCookie };
  }

  const remove = (id: string, token: string, json: unknown, cookie?: string) =>
    server.api.call("DELETE", `/api/auth/user/${id}`, {
      token,
      json,
      ...(cookie && { headers: { cookie } }),
    });

  it("confirms with a GitHub re-sign-in of the same GitHub user, in the same browser", async () => {
    github.state.user = { id: 9001, login: "octo-delete", email: null };
    const me = await signInWithGithub();
    const preview = await server.api.get(`/api/auth/user/${me.id}/deletion`, me.token);
    expect(preview.body).toMatchObject({ hasPassword: false });
    const noPassword = await remove(me.id, me.token, { password: "guess" });
    expect(noPassword.status).toBe(401);
    expect(noPassword.body.message).toBe(ACCOUNT_MESSAGES.needsGithub);

    // The code alone, without this browser's cookie, is refused (and used up).
    const first = await reauth();
    const stolen = await remove(me.id, me.token, { githubCode: first.code });
    expect(stolen.status).toBe(401);
    expect((await remove(me.id, me.token, { githubCode: first.code }, first.cookie)).status).toBe(401);
    expect((await server.api.get("/api/getuser", me.token)).status).toBe(200);

    // Another GitHub user's re-sign-in does not delete this account.
    github.state.user = { id: 9002, login: "octo-other", email: null };
    const other = await signInWithGithub();
    const theirs = await reauth();
    const mismatch = await remove(me.id, me.token, { githubCode: theirs.code }, theirs.cookie);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.message).toBe(ACCOUNT_MESSAGES.githubMismatch);
    for (const user of [me, other])
      expect((await server.api.get("/api/getuser", user.token)).status).toBe(200);

    github.state.user = { id: 9001, login: "octo-delete", email: null };
    const mine = await reauth();
    const res = await remove(me.id, me.token, { githubCode: mine.code }, mine.cookie);
    expect(res.status).toBe(200);
    expect((await server.api.get("/api/getuser", me.token)).status).toBe(401);
    const rows = await server.db.query<{ github_id: string | null }>(
      "SELECT github_id FROM users WHERE id = $1",
      [me.id],
    );
    expect(rows[0]?.github_id).toBeNull();

    // The GitHub account is free: signing in with it again makes a new account.
    const again = await signInWithGithub();
    expect(again.id).not.toBe(me.id);
  });

  it("a re-sign-in of a GitHub user with no account here goes back to the account page with an error", async () => {
    github.state.user = { id: 9999, login: "octo-stranger", email: null };
    const { location } = await roundTrip("/api/auth/github?for=delete");
    expect(location.pathname).toBe("/account");
    expect(new URLSearchParams(location.hash.slice(1)).get("deleteError")).toBe("reauth_mismatch");
  });
});
