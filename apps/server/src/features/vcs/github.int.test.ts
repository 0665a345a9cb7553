import fs from "node:fs/promises";
import path from "node:path";
import { GIT_MESSAGES, type GitStatusUpdate } from "@ensemble/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../../test/collabClient";
import { execFileAsync, type FakeGithub, gitOp, gitSuite, OWNER, ok } from "../../../test/gitSuite";
import { DATABASES, type TestServer } from "../../../test/harness";

describe.each(DATABASES)("git with GitHub on %s", (kind) => {
  const { newSession, liveText, current } = gitSuite(kind);
  let server: TestServer;
  let github: FakeGithub;
  let token = "";
  beforeAll(() => {
    ({ server, github, token } = current());
  });

  it("connects with the spec's messages: a wrong token, a missing repository, the rate limit, then the user", async () => {
    const { sessionId, host, target } = await newSession();
    await github.createRepo(OWNER, target.repo);

    const wrong = await gitOp(host, sessionId, { op: "connect", github: { ...target, token: "ghp_wrong" } });
    expect(wrong).toEqual({ ok: false, error: { code: "github_auth", message: GIT_MESSAGES.authFailed } });

    const missing = await gitOp(host, sessionId, {
      op: "connect",
      github: { ...target, repo: "nothing-here" },
    });
    expect(missing).toEqual({
      ok: false,
      error: { code: "not_found", message: GIT_MESSAGES.repositoryNotFound(OWNER, "nothing-here") },
    });

    github.exhaustRateLimit(1);
    const limited = await gitOp(host, sessionId, { op: "connect", github: target });
    expect(limited).toEqual({
      ok: false,
      error: { code: "rate_limited", message: GIT_MESSAGES.rateLimited },
    });

    const connected = await ok(host, sessionId, { op: "connect", github: target });
    expect(connected.message).toBe(GIT_MESSAGES.authSucceeded);
    expect(connected.user).toMatchObject({ username: OWNER, name: "Octo Cat" });
    // origin points at the repository, without credentials.
    const { stdout } = await execFileAsync("git", ["remote", "get-url", "origin"], {
      cwd: path.join(server.dataDir, "repos", sessionId),
    });
    expect(stdout.trim()).toBe(`${github.gitUrl}/${OWNER}/${target.repo}.git`);
  });

  it("commits and pushes: a clone from GitHub holds the live files; everyone's badge follows the status", async () => {
    const { sessionId, host, guest, target } = await newSession();
    await host.request("createFile", {
      sessionId,
      path: "src/util.js",
      kind: "file",
      content: "export const x = 1;\n",
    });
    const status = await ok(host, sessionId, { op: "status" });
    expect(status.status.entries).toEqual([
      { path: "src/main.js", status: "added", staged: false },
      { path: "src/util.js", status: "added", staged: false },
    ]);
    // The guest, who may not run git, still learns the status for the badge.
    await waitFor(() => (guest.received.get("gitStatus") ?? []).length > 0, 5000, "gitStatus at the guest");
    const update = guest.received.get("gitStatus")?.at(-1) as GitStatusUpdate;
    expect(update).toEqual({ sessionId, status: status.status });

    expect((await ok(host, sessionId, { op: "add", paths: ["src/util.js"] })).status.entries).toEqual([
      { path: "src/main.js", status: "added", staged: false },
      { path: "src/util.js", status: "added", staged: true },
    ]);
    expect((await ok(host, sessionId, { op: "unstage", paths: ["src/util.js"] })).status.entries[1]).toEqual({
      path: "src/util.js",
      status: "added",
      staged: false,
    });
    await ok(host, sessionId, { op: "add", paths: [] });
    const committed = await ok(host, sessionId, { op: "commit", message: "" });
    expect(committed.message).toMatch(
      new RegExp(`^Committed [0-9a-f]{7} ${GIT_MESSAGES.defaultCommitMessage}$`),
    );
    expect(committed.status.entries).toEqual([]);

    // The repository does not exist yet: the push creates it under the token's account.
    const pushed = await ok(host, sessionId, { op: "push", github: target });
    expect(pushed.message).toBe(`Pushed main to ${OWNER}/${target.repo} (repository created).`);
    expect(await github.readFile(OWNER, target.repo, "main", "src/util.js")).toBe("export const x = 1;\n");
    expect(await github.readFile(OWNER, target.repo, "main", "src/main.js")).toBe(liveText(sessionId));
    const clone = path.join(server.dataDir, `clone-${target.repo}`);
    await execFileAsync("git", ["clone", "--quiet", `${github.gitUrl}/${OWNER}/${target.repo}.git`, clone], {
      env: {
        PATH: process.env.PATH ?? "",
        GIT_TERMINAL_PROMPT: "0",
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "http.extraHeader",
        GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`,
      },
    });
    expect(await fs.readFile(path.join(clone, "src/main.js"), "utf8")).toBe(liveText(sessionId));
    expect((await github.log(OWNER, target.repo, "main"))[0]?.subject).toBe(
      GIT_MESSAGES.defaultCommitMessage,
    );

    // Nothing to push without a commit: a second session's empty repository says so.
    const other = await newSession();
    expect(await gitOp(other.host, other.sessionId, { op: "push", github: other.target })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: `${GIT_MESSAGES.noCommits} Commit before pushing.` },
    });
  });

  it("never forces a push: a rejected push says pull first; the pull reaches every editor, then the push goes", async () => {
    const { sessionId, host, guest, target } = await newSession();
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "start" });
    await ok(host, sessionId, { op: "push", github: target });

    // Someone else pushes to GitHub; meanwhile the host commits a new file.
    const theirs = await github.commitOnRemote(
      OWNER,
      target.repo,
      "main",
      { "docs/notes.md": "# Notes\n" },
      "notes",
    );
    await host.request("createFile", { sessionId, path: "src/mine.js", kind: "file", content: "mine\n" });
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "mine" });
    expect(await gitOp(host, sessionId, { op: "push", github: target })).toEqual({
      ok: false,
      error: { code: "conflict", message: GIT_MESSAGES.pushRejected },
    });
    // GitHub still has their commit on top: nothing was overwritten.
    expect((await github.log(OWNER, target.repo, "main"))[0]?.sha).toBe(theirs);

    // While the host pulls, the guest keeps typing in main.js.
    const pulling = ok(host, sessionId, { op: "pull", github: target });
    guest.file().insert(0, "// typed during the pull\n");
    const pulled = await pulling;
    expect(pulled.message).toBe("Pulled origin/main into main.");
    for (const editor of [host, guest]) {
      await waitFor(
        () => editor.text("docs/notes.md") === "# Notes\n",
        5000,
        "the pulled file in every editor",
      );
      await waitFor(
        () => editor.text().startsWith("// typed during the pull\n"),
        5000,
        "the typed line kept",
      );
    }
    expect(await ok(host, sessionId, { op: "push", github: target })).toMatchObject({
      message: `Pushed main to ${OWNER}/${target.repo}.`,
    });
    const subjects = (await github.log(OWNER, target.repo, "main")).map((c) => c.subject);
    expect(subjects.slice(0, 3)).toEqual(["Merge origin/main", "mine", "notes"]);

    // A remote change to a file with uncommitted edits is refused, changing nothing.
    await github.commitOnRemote(OWNER, target.repo, "main", { "src/main.js": "// theirs\n" }, "theirs");
    const before = host.text();
    const refused = await gitOp(host, sessionId, { op: "pull", github: target });
    expect(refused).toEqual({
      ok: false,
      error: { code: "conflict", message: GIT_MESSAGES.wouldOverwrite("Merging origin/main") },
    });
    expect(host.text()).toBe(before);
    expect(guest.text()).toBe(before);
  });

  it("pulls files the editors cannot hold (binary, over 1 MiB) into the repository and leaves them there", async () => {
    const { sessionId, host, guest, target } = await newSession();
    await github.createRepo(OWNER, target.repo, {
      files: {
        "logo.png": "\u0089PNG\r\n\u001a\n\u0000\u0000binary",
        "data/big.txt": "x".repeat(1_100_000),
        "README.md": "# hi\n",
      },
    });
    const pulled = await ok(host, sessionId, { op: "pull", github: target });
    expect(pulled.message).toBe("Pulled origin/main into main.");
    await waitFor(() => guest.text("README.md") === "# hi\n", 5000, "the text file in the editors");
    expect(guest.text("logo.png")).toBe("");
    expect(guest.text("data/big.txt")).toBe("");
    // git still has them: nothing shows as deleted, and the next commit and push keep them.
    expect(pulled.status.entries.filter((e) => e.status === "deleted")).toEqual([]);
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "after pull" });
    await ok(host, sessionId, { op: "push", github: target });
    expect((await github.readFile(OWNER, target.repo, "main", "data/big.txt")).length).toBe(1_100_000);
    expect(await github.readFile(OWNER, target.repo, "main", "logo.png")).toContain("binary");
  });

  it("merges a branch for everyone; a conflict merges nothing and says so", async () => {
    const { sessionId, host, guest, repoDir } = await newSession();
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "base" });
    expect(await gitOp(host, sessionId, { op: "merge", branch: "nowhere" })).toEqual({
      ok: false,
      error: { code: "not_found", message: GIT_MESSAGES.noSuchBranch("nowhere") },
    });
    await ok(host, sessionId, { op: "branch", name: "feature" });
    await ok(host, sessionId, { op: "switch", branch: "feature" });
    await host.request("createFile", {
      sessionId,
      path: "src/feature.js",
      kind: "file",
      content: "feature\n",
    });
    host.file().insert(0, "// from feature\n");
    await waitFor(() => liveText(sessionId)?.startsWith("// from feature") ?? false);
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "feature work" });
    const onMain = await ok(host, sessionId, { op: "switch", branch: "main" });
    expect(onMain.branches).toEqual(["  feature", "* main"]);
    await waitFor(
      () => guest.text("src/feature.js") === "" && !guest.text().startsWith("// from"),
      5000,
      "main",
    );

    const merged = await ok(host, sessionId, { op: "merge", branch: "feature" });
    expect(merged.message).toBe("Merged 'feature' into main.");
    for (const editor of [host, guest]) {
      await waitFor(
        () => editor.text("src/feature.js") === "feature\n" && editor.text().startsWith("// from feature\n"),
        5000,
        "the merge in every editor",
      );
    }
    expect((await ok(host, sessionId, { op: "merge", branch: "feature" })).message).toBe(
      GIT_MESSAGES.alreadyUpToDate,
    );

    // Both branches change the same line: the merge is refused and nothing is half-merged.
    await ok(host, sessionId, { op: "branch", name: "rival" });
    const first = host.text().split("\n")[0] ?? "";
    host.file().delete(0, first.length);
    host.file().insert(0, "// main's line");
    await waitFor(() => liveText(sessionId)?.startsWith("// main's line") ?? false);
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "main's line" });
    await ok(host, sessionId, { op: "switch", branch: "rival" });
    await waitFor(() => guest.text().startsWith(first));
    host.file().delete(0, first.length);
    host.file().insert(0, "// rival's line");
    await waitFor(() => liveText(sessionId)?.startsWith("// rival's line") ?? false);
    await ok(host, sessionId, { op: "add", paths: [] });
    await ok(host, sessionId, { op: "commit", message: "rival's line" });
    const head = (await execFileAsync("git", ["rev-parse", "HEAD"], { cwd: repoDir })).stdout;
    const textBefore = guest.text();
    expect(await gitOp(host, sessionId, { op: "merge", branch: "main" })).toEqual({
      ok: false,
      error: { code: "conflict", message: GIT_MESSAGES.mergeConflict },
    });
    expect((await execFileAsync("git", ["rev-parse", "HEAD"], { cwd: repoDir })).stdout).toBe(head);
    await expect(fs.access(path.join(repoDir, ".git", "MERGE_HEAD"))).rejects.toThrow();
    expect((await ok(host, sessionId, { op: "status" })).status.entries).toEqual([]);
    expect(guest.text()).toBe(textBefore);
    expect(liveText(sessionId)).toBe(textBefore);
  });
});
