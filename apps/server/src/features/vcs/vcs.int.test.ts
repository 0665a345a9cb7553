import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { TerminalEntry } from "@ensemble/protocol";
import { GIT_MESSAGES as VCS_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, typeLine, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import { parseStatus, statusAfterCommit } from "./status";

const git = promisify(execFile);

const text = (entries: Pick<TerminalEntry, "content">[]) => entries.map((e) => e.content).join("\n");

describe.each(DATABASES)("version control on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  let dataDir = "";

  /** A session with its host (signed in) and a guest, synced. */
  async function newSession() {
    const joined = await editors.hostAndGuest(server.api, "vcs");
    return { ...joined, repo: path.join(dataDir, "repos", joined.sessionId) };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    dataDir = server.dataDir;
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("keeps a repository whose working tree is the live workspace: status, add, commit, log", async () => {
    const { sessionId, host, hostUser, repo } = await newSession();
    expect(text(await typeLine(host, sessionId, "git status"))).toBe(
      "On branch main\n  unstaged  added     src/main.js",
    );
    expect(text(await typeLine(host, sessionId, "git log"))).toBe(VCS_MESSAGES.noCommits);
    expect(text(await typeLine(host, sessionId, "git commit -m 'empty'"))).toBe(VCS_MESSAGES.nothingToCommit);
    expect(text(await typeLine(host, sessionId, "git add ."))).toBe("Staged all changes");
    expect(text(await typeLine(host, sessionId, 'git commit -m "First commit"'))).toMatch(
      /^Committed [0-9a-f]{7} First commit$/,
    );
    // The commit carries the host's name and account e-mail.
    const { stdout } = await git("git", ["log", "-1", "--format=%an <%ae>|%s"], { cwd: repo });
    expect(stdout.trim()).toBe(`${hostUser.user.name} <${hostUser.user.email}>|First commit`);

    // An edit anyone makes is what git compares with HEAD.
    host.file().insert(0, "// changed\n");
    await waitFor(
      () => server.app.collab.workspace.files(sessionId)?.[0]?.content.startsWith("// changed") ?? false,
    );
    expect(text(await typeLine(host, sessionId, "git status"))).toBe(
      "On branch main\n  unstaged  modified  src/main.js",
    );
    expect(text(await typeLine(host, sessionId, "git diff"))).toContain("+// changed");
    await host.request("createFile", { sessionId, path: "src/lib/util.js", kind: "file", content: "x\n" });
    await host.request("deletePath", { sessionId, path: "src/main.js" });
    await typeLine(host, sessionId, "git add");
    await typeLine(host, sessionId, "git commit");
    const log = text(await typeLine(host, sessionId, "git log"));
    expect(log.split("\n")).toEqual([
      expect.stringMatching(`^[0-9a-f]{7} ${hostUser.user.name}: ${VCS_MESSAGES.defaultCommitMessage}$`),
      expect.stringMatching(`^[0-9a-f]{7} ${hostUser.user.name}: First commit$`),
    ]);
    const files = await git("git", ["ls-tree", "-r", "--name-only", "HEAD"], { cwd: repo });
    expect(files.stdout.trim()).toBe("src/lib/util.js");
  });

  it("creates and lists branches, refusing invalid names", async () => {
    const { sessionId, host } = await newSession();
    await typeLine(host, sessionId, "git add");
    await typeLine(host, sessionId, "git commit -m start");
    expect(text(await typeLine(host, sessionId, "git branch feature/login"))).toBe(
      "Created branch 'feature/login'",
    );
    expect(text(await typeLine(host, sessionId, "git branch"))).toBe("  feature/login\n* main");
    for (const bad of ["bad..name", "-x", "a b", "end.lock"]) {
      const answer = await typeLine(host, sessionId, `git branch '${bad}'`);
      expect(answer).toMatchObject([{ type: "error", content: VCS_MESSAGES.branchNameInvalid(bad) }]);
    }
    expect(text(await typeLine(host, sessionId, "git branch feature/login"))).toBe(
      VCS_MESSAGES.branchExists("feature/login"),
    );
    expect(text(await typeLine(host, sessionId, "git rebase main"))).toBe(
      "Unsupported git operation: rebase",
    );
  });

  it("switches branches for everyone: the files git changes reach every editor as edits", async () => {
    const { sessionId, host, guest } = await newSession();
    await typeLine(host, sessionId, "git add");
    await typeLine(host, sessionId, "git commit -m base");
    await typeLine(host, sessionId, "git branch feature");
    expect(text(await typeLine(host, sessionId, "git switch feature"))).toBe("Switched to branch 'feature'");
    // Work on the feature branch: a change to main.js and a new file, committed.
    host.file().insert(0, "// feature\n");
    await host.request("createFile", { sessionId, path: "src/feature.js", kind: "file", content: "f\n" });
    await waitFor(() => guest.text("src/feature.js") === "f\n", 5000, "the new file at the guest");
    await typeLine(host, sessionId, "git add");
    await typeLine(host, sessionId, "git commit -m feature");
    const featureMain = host.text();

    expect(text(await typeLine(host, sessionId, "git checkout main"))).toBe("Switched to branch 'main'");
    for (const editor of [host, guest]) {
      await waitFor(
        () => !editor.text().startsWith("// feature") && editor.text("src/feature.js") === "",
        5000,
        "main",
      );
    }
    expect(text(await typeLine(host, sessionId, "git status"))).toBe(
      "On branch main\nnothing to commit, working tree clean",
    );
    await typeLine(host, sessionId, "git switch feature");
    await waitFor(
      () => guest.text() === featureMain && guest.text("src/feature.js") === "f\n",
      5000,
      "feature",
    );

    // An unknown branch, and a switch that would overwrite uncommitted work, change nothing.
    expect(text(await typeLine(host, sessionId, "git switch nowhere"))).toBe(
      VCS_MESSAGES.noSuchBranch("nowhere"),
    );
    host.file().insert(0, "// not committed\n");
    await waitFor(() => guest.text().startsWith("// not committed"));
    expect(text(await typeLine(host, sessionId, "git switch main"))).toBe(
      VCS_MESSAGES.wouldOverwrite("Switching to 'main'"),
    );
    expect(guest.text()).toBe(`// not committed\n${featureMain}`);
  });

  it("refuses every git operation to anyone but the host", async () => {
    const { sessionId, guest, repo } = await newSession();
    for (const line of ["git status", "git add", "git commit -m x", "git branch x", "git log", "git diff"]) {
      expect(await typeLine(guest, sessionId, line)).toMatchObject([
        { type: "error", content: VCS_MESSAGES.hostOnly },
      ]);
    }
    // Nothing was even created for them.
    await expect(git("git", ["status"], { cwd: repo })).rejects.toThrow();
  });

  it("never lets a repository's own configuration run code: hooks are off", async () => {
    const { sessionId, host, repo } = await newSession();
    await typeLine(host, sessionId, "git status");
    const fs = await import("node:fs/promises");
    const marker = path.join(repo, "..", `hook-ran-${sessionId}`);
    // post-commit runs even with --no-verify; an fsmonitor command runs on every status.
    const hook = path.join(repo, ".git", "hooks", "post-commit");
    await fs.writeFile(hook, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    await git("git", ["config", "core.fsmonitor", `touch ${marker}-fsmonitor; false`], { cwd: repo });
    await typeLine(host, sessionId, "git add");
    expect(text(await typeLine(host, sessionId, "git commit -m hooked"))).toMatch(/^Committed/);
    await typeLine(host, sessionId, "git status");
    await expect(fs.access(marker)).rejects.toThrow();
    await expect(fs.access(`${marker}-fsmonitor`)).rejects.toThrow();
  });
});

describe("parseStatus", () => {
  it("reads branch, renames and untracked files", () => {
    const raw = ["## main...origin/main", "R  new.js", "old.js", " M a.js", "?? b.py", "D  c.md", ""].join(
      "\0",
    );
    expect(parseStatus(raw)).toEqual({
      branch: "main",
      entries: [
        { path: "a.js", status: "modified", staged: false },
        { path: "b.py", status: "added", staged: false },
        { path: "c.md", status: "deleted", staged: true },
        { path: "new.js", status: "renamed", staged: true },
      ],
    });
    expect(parseStatus("## No commits yet on main\0").branch).toBe("main");
  });
});

describe("statusAfterCommit", () => {
  /** Real git in a scratch repository, as the service runs it (no user configuration). */
  async function scratch() {
    const fs = await import("node:fs/promises");
    const os = await import("node:os");
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "status-after-commit-"));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.test",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.test",
    };
    const run = async (...args: string[]) => (await git("git", args, { cwd: dir, env })).stdout;
    const write = (file: string, text: string) =>
      fs
        .mkdir(path.dirname(path.join(dir, file)), { recursive: true })
        .then(() => fs.writeFile(path.join(dir, file), text));
    const status = () => run("status", "--porcelain=v1", "-z", "--branch", "--untracked-files=all");
    await run("init", "--quiet", "--initial-branch=main");
    return { dir, run, write, status, remove: (file: string) => fs.rm(path.join(dir, file)) };
  }

  it("says what git status says after a commit, from the status before it", async () => {
    const repo = await scratch();
    // An unborn branch: staged, staged then edited, untracked.
    await repo.write("a.txt", "a\n");
    await repo.write("b.txt", "b\n");
    await repo.write("lib/c.txt", "c\n");
    await repo.run("add", "a.txt", "b.txt");
    await repo.write("b.txt", "b edited\n");
    let before = await repo.status();
    await repo.run("commit", "--quiet", "-m", "first");
    expect(statusAfterCommit(before)).toBe(await repo.status());

    // Every kind of staged change, with and without a later edit in the working tree.
    await repo.write("d.txt", "d\n");
    await repo.write("e.txt", "e\n");
    await repo.write("f.txt", "f\n");
    await repo.write("g.txt", "g\n");
    await repo.run("add", "--all");
    await repo.run("commit", "--quiet", "-m", "second");
    await repo.write("a.txt", "a changed\n"); // M
    await repo.write("d.txt", "d changed\n"); // MM
    await repo.run("add", "a.txt", "d.txt");
    await repo.write("d.txt", "d changed twice\n");
    await repo.run("rm", "--quiet", "e.txt"); // D
    await repo.run("mv", "f.txt", "f-renamed.txt"); // R
    await repo.write("h.txt", "h\n"); // AD
    await repo.run("add", "h.txt");
    await repo.remove("h.txt");
    await repo.write("g.txt", "g unstaged\n"); // unstaged M
    before = await repo.status();
    expect(parseStatus(before).entries.filter((e) => e.staged).length).toBeGreaterThanOrEqual(4);
    await repo.run("commit", "--quiet", "-m", "third");
    expect(statusAfterCommit(before)).toBe(await repo.status());
  });
});
