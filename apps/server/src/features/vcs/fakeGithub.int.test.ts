import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGithub } from "../../../test/fakeGithub";

const execFileAsync = promisify(execFile);
const OCTO = { id: 1, login: "octo", email: null, name: "Octo Cat" };
const MONA = { id: 2, login: "mona", email: null };
const TOKEN = "ghp_octo_secret_token";
const MONA_TOKEN = "ghp_mona_secret_token";

let github: Awaited<ReturnType<typeof startFakeGithub>>;
let work: string;

/** The system git, isolated from the machine's config, never prompting; the token rides in an env header. */
function git(cwd: string, args: string[], token?: string) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: work,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Tester",
    GIT_AUTHOR_EMAIL: "tester@example.test",
    GIT_COMMITTER_NAME: "Tester",
    GIT_COMMITTER_EMAIL: "tester@example.test",
  };
  if (token) {
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    Object.assign(env, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    });
  }
  return execFileAsync("git", args, { cwd, env, timeout: 20_000 });
}

function api(route: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  return fetch(new URL(route, github.apiUrl), {
    method: init.method ?? "GET",
    headers: {
      accept: "application/vnd.github+json",
      ...(init.token ? { authorization: `token ${init.token}` } : {}),
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
}

beforeAll(async () => {
  github = await startFakeGithub({ user: OCTO, tokens: { [TOKEN]: OCTO, [MONA_TOKEN]: MONA } });
  work = await fs.mkdtemp(path.join(os.tmpdir(), "fake-github-test-"));
});
afterAll(async () => {
  const { gitDir } = await github.createRepo("octo", "probe");
  await github.close();
  await expect(fs.stat(gitDir)).rejects.toThrow();
  await fs.rm(work, { recursive: true, force: true });
});

describe("fake GitHub over git smart HTTP", () => {
  it("clones a seeded repository, takes a push, and a fresh clone sees it", async () => {
    const { cloneUrl } = await github.createRepo("octo", "hello", {
      files: { "README.md": "# hello\n", "src/main.ts": "console.log(1);\n" },
    });
    expect(cloneUrl).toBe(`${github.gitUrl}/octo/hello.git`);
    const first = path.join(work, "first");
    await git(work, ["clone", cloneUrl, first], TOKEN);
    expect(await fs.readFile(path.join(first, "src/main.ts"), "utf8")).toBe("console.log(1);\n");

    await fs.writeFile(path.join(first, "notes.txt"), "pushed from a test\n");
    await git(first, ["add", "notes.txt"]);
    await git(first, ["commit", "-m", "Add notes"]);
    await git(first, ["push", "origin", "main"], TOKEN);

    expect(await github.readFile("octo", "hello", "main", "notes.txt")).toBe("pushed from a test\n");
    expect((await github.log("octo", "hello", "main")).map((c) => c.subject)).toEqual([
      "Add notes",
      "Initial commit",
    ]);
    const second = path.join(work, "second");
    await git(work, ["clone", cloneUrl, second], TOKEN);
    expect(await fs.readFile(path.join(second, "notes.txt"), "utf8")).toBe("pushed from a test\n");
  });

  it("lets a clone fetch what someone else pushed to GitHub", async () => {
    const { cloneUrl } = await github.createRepo("octo", "shared", { files: { "a.txt": "a\n" } });
    const local = path.join(work, "shared");
    await git(work, ["clone", cloneUrl, local], TOKEN);
    const sha = await github.commitOnRemote(
      "octo",
      "shared",
      "main",
      { "b.txt": "b\n", "a.txt": null },
      "Theirs",
    );
    await git(local, ["pull", "--ff-only", "origin", "main"], TOKEN);
    expect((await git(local, ["rev-parse", "HEAD"])).stdout.trim()).toBe(sha);
    await expect(fs.readFile(path.join(local, "a.txt"))).rejects.toThrow();
    expect(await fs.readFile(path.join(local, "b.txt"), "utf8")).toBe("b\n");
  });

  it("refuses a push without a token, or with a wrong one, as an authentication failure", async () => {
    const { cloneUrl } = await github.createRepo("octo", "guarded", { files: { "a.txt": "a\n" } });
    const local = path.join(work, "guarded");
    await git(work, ["clone", cloneUrl, local], TOKEN);
    await fs.writeFile(path.join(local, "a.txt"), "changed\n");
    await git(local, ["commit", "-am", "Change"]);

    await expect(git(local, ["push", "origin", "main"])).rejects.toMatchObject({
      stderr: expect.stringMatching(/could not read Username|terminal prompts disabled/),
    });
    // With the token in a header git cannot tell a wrong one from none: it asks for a username either way.
    await expect(git(local, ["push", "origin", "main"], "ghp_wrong")).rejects.toMatchObject({
      stderr: expect.stringMatching(/could not read Username|terminal prompts disabled/),
    });
    expect((await github.log("octo", "guarded", "main")).map((c) => c.subject)).toEqual(["Initial commit"]);
    expect(github.requests.some((r) => r.path.startsWith("/octo/guarded.git") && !r.hasAuth)).toBe(true);
  });

  it("refuses another account's private repository", async () => {
    await github.createRepo("octo", "secret", { files: { "a.txt": "a\n" } });
    await expect(
      git(work, ["clone", `${github.gitUrl}/octo/secret.git`, path.join(work, "stolen")], MONA_TOKEN),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/not found/i) });
  });

  it("lets another account clone a public repository but not push to it", async () => {
    const { cloneUrl } = await github.createRepo("octo", "open", {
      files: { "a.txt": "a\n" },
      private: false,
    });
    const local = path.join(work, "open");
    await git(work, ["clone", cloneUrl, local], MONA_TOKEN);
    await fs.writeFile(path.join(local, "a.txt"), "mona was here\n");
    await git(local, ["commit", "-am", "Mona's change"]);
    await expect(git(local, ["push", "origin", "main"], MONA_TOKEN)).rejects.toMatchObject({
      stderr: expect.stringMatching(/403/),
    });
    expect(await github.readFile("octo", "open", "main", "a.txt")).toBe("a\n");
  });

  it("keeps no token in its request log", () => {
    expect(github.requests.length).toBeGreaterThan(0);
    const logged = JSON.stringify(github.requests);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString("base64"));
  });
});

describe("fake GitHub REST", () => {
  it("describes the token's user, and answers 401 without a good token", async () => {
    const me = await api("/user", { token: TOKEN });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      login: "octo",
      name: "Octo Cat",
      html_url: `${github.url}/octo`,
      avatar_url: expect.stringContaining(github.url),
    });
    const bad = await api("/user", { token: "ghp_wrong" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({
      message: "Bad credentials",
      documentation_url: expect.any(String),
    });
    expect((await api("/user")).status).toBe(401);
  });

  it("shows a repository to its owner and 404s it for others or when missing", async () => {
    await github.createRepo("octo", "shown");
    const res = await api("/repos/octo/shown", { token: TOKEN });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: "shown",
      full_name: "octo/shown",
      private: true,
      default_branch: "main",
      clone_url: `${github.gitUrl}/octo/shown.git`,
      permissions: { admin: true, push: true, pull: true },
    });
    const foreign = await api("/repos/octo/shown", { token: MONA_TOKEN });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ message: "Not Found" });
    expect((await api("/repos/octo/missing", { token: TOKEN })).status).toBe(404);
    expect((await api("/repos/octo/shown")).status).toBe(401);
  });

  it("creates a repository with an initial README on main, and 422s a duplicate", async () => {
    const body = { name: "made", description: "A new one", private: true, auto_init: true };
    const created = await api("/user/repos", { method: "POST", token: TOKEN, body });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ full_name: "octo/made", default_branch: "main" });
    expect(await github.readFile("octo", "made", "main", "README.md")).toContain("# made");

    const again = await api("/user/repos", { method: "POST", token: TOKEN, body });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({
      message: "Repository creation failed.",
      errors: [expect.objectContaining({ message: "name already exists on this account" })],
    });
  });

  it("reports a branch's head and 404s a missing branch", async () => {
    await github.createRepo("octo", "branchy", { files: { "a.txt": "a\n" } });
    const sha = await github.commitOnRemote("octo", "branchy", "feature/x", { "b.txt": "b\n" }, "Feature");
    const res = await api("/repos/octo/branchy/branches/feature/x", { token: TOKEN });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "feature/x", commit: { sha } });
    const missing = await api("/repos/octo/branchy/branches/nope", { token: TOKEN });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: "Branch not found" });
  });

  it("answers GitHub's rate-limit error when told to, then recovers", async () => {
    github.exhaustRateLimit();
    const limited = await api("/user", { token: TOKEN });
    expect(limited.status).toBe(403);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await limited.json()).toMatchObject({
      message: expect.stringMatching(/^API rate limit exceeded/),
    });
    expect((await api("/user", { token: TOKEN })).status).toBe(200);
  });
});
