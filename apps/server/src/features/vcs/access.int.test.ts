import fs from "node:fs/promises";
import path from "node:path";
import { GIT_MESSAGES, type GitOperation } from "@ensemble/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { typeLine } from "../../../test/collabClient";
import {
  execFileAsync,
  type FakeGithub,
  filesContaining,
  gitOp,
  gitSuite,
  OWNER,
  ok,
} from "../../../test/gitSuite";
import { buildSession, buildUser, DATABASES, type TestServer } from "../../../test/harness";

describe.each(DATABASES)("who may use git, and where the token goes on %s", (kind) => {
  const { editors, newSession, current } = gitSuite(kind);
  let server: TestServer;
  let github: FakeGithub;
  let token = "";
  beforeAll(() => {
    ({ server, github, token } = current());
  });
  it("refuses every operation to anyone but the host: forged socket events and HTTP calls", async () => {
    const { sessionId, guest, target, repoDir, hostUser } = await newSession();
    const participantUser = await buildUser(server.api);
    const participant = await editors.open(participantUser.token);
    await participant.join(sessionId);
    const operations: GitOperation[] = [
      { op: "status" },
      { op: "add", paths: [] },
      { op: "unstage", paths: [] },
      { op: "commit", message: "x" },
      { op: "branch", name: "x" },
      { op: "branch" },
      { op: "switch", branch: "main" },
      { op: "merge", branch: "main" },
      { op: "log" },
      { op: "diff" },
      { op: "init" },
      { op: "connect", github: target },
      { op: "push", github: target },
      { op: "pull", github: target },
    ];
    const forbidden = { ok: false, error: { code: "forbidden", message: GIT_MESSAGES.hostOnly } };
    for (const operation of operations) {
      expect(await gitOp(guest, sessionId, operation)).toEqual(forbidden);
      expect(await gitOp(participant, sessionId, operation)).toEqual(forbidden);
    }
    // A socket that joined another session is not let in by naming this one.
    const outsiderSession = await buildSession(server.api, "elsewhere");
    const outsider = await editors.open(outsiderSession.host.token);
    await outsider.join(outsiderSession.sessionId);
    expect(await gitOp(outsider, sessionId, { op: "status" })).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    // Nothing was created, and GitHub was never called for them.
    await expect(fs.access(repoDir)).rejects.toThrow();
    expect(github.requests.filter((r) => r.path.includes(target.repo))).toEqual([]);

    // HTTP: no token, an outsider, a participant; then the host.
    const route = `/api/session/${sessionId}/git`;
    expect((await server.api.post(route, { op: "status" })).status).toBe(401);
    const stranger = await buildUser(server.api);
    for (const who of [stranger, participantUser]) {
      const res = await server.api.post(route, { op: "log" }, who.token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "forbidden", message: GIT_MESSAGES.hostOnly });
    }
    const invalid = await server.api.post(route, { op: "branch", name: "bad..name" }, hostUser.token);
    expect(invalid.body).toEqual({
      code: "invalid_body",
      message: GIT_MESSAGES.branchNameInvalid("bad..name"),
    });
    const res = await server.api.post(route, { op: "status" }, hostUser.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: { branch: "main" }, branches: ["* main"] });
  });

  it("answers git in the terminal: a guest is refused every command, push needs GitHub, the host's lines work", async () => {
    const { sessionId, host, guest, target } = await newSession();
    for (const line of [
      "git status",
      "git add .",
      "git commit -m x",
      "git branch x",
      "git switch main",
      "git merge main",
      "git log",
      "git diff",
      "git init",
      "git push",
      "git pull",
      "git auth",
      "git reset",
    ]) {
      expect(await typeLine(guest, sessionId, line)).toEqual([
        { type: "error", content: GIT_MESSAGES.hostOnly },
      ]);
    }
    expect(await typeLine(host, sessionId, "git push")).toEqual([
      { type: "error", content: GIT_MESSAGES.authRequired },
    ]);
    expect(await typeLine(host, sessionId, "git merge")).toEqual([
      { type: "error", content: "'git merge' requires a branch name" },
    ]);
    expect(await typeLine(host, sessionId, "git init")).toEqual([
      { type: "output", content: "Git repository ready on branch 'main'." },
    ]);
    await typeLine(host, sessionId, "git add .");
    await typeLine(host, sessionId, 'git commit -m "from the terminal"');
    expect(await typeLine(host, sessionId, "git push", target)).toEqual([
      { type: "output", content: `Pushed main to ${OWNER}/${target.repo} (repository created).` },
    ]);
    expect(await typeLine(host, sessionId, "git auth", target)).toEqual([
      { type: "output", content: `Authenticated as ${OWNER}. ${GIT_MESSAGES.authSucceeded}` },
    ]);
    expect(await typeLine(host, sessionId, "git pull", target)).toEqual([
      { type: "output", content: `${GIT_MESSAGES.alreadyUpToDate}` },
    ]);
    // The stored terminal history holds the typed lines only.
    const history = JSON.stringify(await server.app.terminal.service.history(sessionId));
    expect(history).toContain("$ git push");
    expect(history).not.toContain(token);
  });

  it("never keeps the token: not in the database, the logs, the data folder, git's config, the remote or argv", async () => {
    const secret = github.issueToken();
    const { sessionId, host, target, repoDir } = await newSession();
    const mine = { ...target, token: secret };
    await github.createRepo(OWNER, target.repo);
    // Watch every process's arguments while git talks to GitHub.
    const seen = new Set<string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { stdout } = await execFileAsync("ps", ["-eo", "args"]).catch(() => ({ stdout: "" }));
        for (const line of stdout.split("\n")) if (line.includes("git")) seen.add(line);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await ok(host, sessionId, { op: "connect", github: mine });
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "secret test" });
    await ok(host, sessionId, { op: "push", github: mine });
    await github.commitOnRemote(OWNER, target.repo, "main", { "remote.txt": "r\n" }, "remote");
    await ok(host, sessionId, { op: "pull", github: mine });
    await typeLine(host, sessionId, "git push", mine);
    // A failing push (wrong repository owner) must not echo it either.
    const failed = await gitOp(host, sessionId, { op: "push", github: { ...mine, owner: "someone-else" } });
    expect(failed.ok).toBe(false);
    watching = false;
    await watcher;

    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter((args) => args.includes(secret))).toEqual([]);
    expect(JSON.stringify(failed)).not.toContain(secret);
    expect(server.logs.join("\n")).not.toContain(secret);
    expect(await filesContaining(server.dataDir, secret)).toEqual([]);
    expect(await fs.readFile(path.join(repoDir, ".git", "config"), "utf8")).not.toContain(secret);
    const { stdout: remote } = await execFileAsync("git", ["remote", "-v"], { cwd: repoDir });
    expect(remote).not.toContain(secret);
    // Every row of every table, as text.
    const tables = await server.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    expect(tables.length).toBeGreaterThan(3);
    for (const { table_name } of tables) {
      const rows = await server.db.query<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
      expect(
        rows.filter((r) => r.row.includes(secret)),
        table_name,
      ).toEqual([]);
    }
  });
});
