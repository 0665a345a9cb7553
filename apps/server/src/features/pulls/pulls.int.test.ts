import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { type Ack, GIT_MESSAGES, type GitOperation, PR_MESSAGES, type PrReviewed } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, typeLine, waitFor } from "../../../test/collabClient";
import { buildSession, buildUser, DATABASES, startTestServer, type TestServer } from "../../../test/harness";
import { titleSlug } from "./service";

const git = promisify(execFile);
const syncs = (editor: TestEditor) => editor.events("prSync");

describe.each(DATABASES)("pull requests on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /**
   * A session with its host, a guest and a signed-in participant; main holds the first
   * commit unless `isMainEmpty`.
   */
  async function newSession({ isMainEmpty = false } = {}) {
    const { host: hostUser, sessionId } = await buildSession(server.api, "prs");
    const host = await editors.open(hostUser.token);
    const guestSecret = randomBytes(32).toString("hex");
    const guest = await editors.open(undefined, { guestSecret });
    const member = await editors.open((await buildUser(server.api)).token);
    for (const editor of [host, guest, member]) await editor.join(sessionId);
    await waitFor(() => host.client.synced && guest.client.synced && member.client.synced);
    if (!isMainEmpty) {
      await gitOk(host, sessionId, { op: "add", paths: [] });
      await gitOk(host, sessionId, { op: "commit", message: "start" });
    }
    return {
      sessionId,
      host,
      guest,
      guestSecret,
      member,
      repo: path.join(server.dataDir, "repos", sessionId),
    };
  }

  async function gitOk(editor: TestEditor, sessionId: string, operation: GitOperation) {
    const ack = (await editor.request("gitOperation", { sessionId, operation }, 30_000)) as Ack<unknown>;
    if (!ack.ok) throw new Error(`${operation.op}: ${ack.error.message}`);
  }

  async function create(editor: TestEditor, sessionId: string, title: string, description?: string) {
    const ack = await editor.request("createPR", { sessionId, title, description });
    if (!ack.ok) throw new Error(`createPR: ${ack.error.message}`);
    return ack.data;
  }

  const review = (editor: TestEditor, sessionId: string, prId: string, action: string, comment?: string) =>
    editor.request("reviewPR", { sessionId, prId, action, comment });

  /** Waits until the server's live copy of `file` is `text`. */
  const serverHas = (sessionId: string, file: string, text: string) =>
    waitFor(
      () => server.app.collab.workspace.files(sessionId)?.find((f) => f.path === file)?.content === text,
      5000,
      `${file} on the server`,
    );

  const runGit = async (repo: string, ...args: string[]) =>
    (await git("git", args, { cwd: repo })).stdout.trim();

  it("makes a PR a branch of the workspace from main's head, seen by everyone, with the real diff", async () => {
    const { sessionId, host, guest, member, repo } = await newSession();
    const mainBefore = await runGit(repo, "rev-parse", "main");
    const original = guest.text();
    guest.file().insert(0, "// from the guest\n");
    await guest.request("createFile", {
      sessionId,
      path: "src/util.js",
      kind: "file",
      content: "export {};\n",
    });
    await serverHas(sessionId, "src/util.js", "export {};\n");
    await serverHas(sessionId, "src/main.js", `// from the guest\n${original}`);

    const { pr, message } = await create(guest, sessionId, "Add util: v1", "Adds a util module.");
    expect(message).toBe(PR_MESSAGES.waitingForReview);
    expect(pr).toMatchObject({
      title: "Add util: v1",
      author: "Anonymous",
      status: "pending",
      targetBranch: "main",
      language: "javascript",
      files: ["src/main.js", "src/util.js"],
      reviewedAt: null,
    });
    expect(pr.sourceBranch).toMatch(new RegExp(`^pr-${titleSlug("Add util: v1")}-\\d+$`));
    expect(titleSlug("Add util: v1")).toBe("add-util--v1");
    expect(pr.description).toContain("Adds a util module.");
    for (const field of [`Session: ${sessionId}`, "Author: Anonymous", "Language: javascript", "Created: "])
      expect(pr.description).toContain(field);
    for (const editor of [host, guest, member])
      await waitFor(
        () => syncs(editor).some((e) => e.type === "pr-added" && e.pr.id === pr.id),
        5000,
        "pr-added",
      );

    // A real branch from main's head; main, HEAD and the host's index are untouched.
    expect(await runGit(repo, "log", "-1", "--format=%s|%P", pr.sourceBranch)).toBe(
      `PR: Add util: v1|${mainBefore}`,
    );
    expect(await runGit(repo, "rev-parse", "main")).toBe(mainBefore);
    expect(await runGit(repo, "diff", "--cached", "--name-only")).toBe("");
    const diff = await member.request("getPRDiff", { sessionId, prId: pr.id });
    expect(diff).toEqual({
      ok: true,
      data: {
        prId: pr.id,
        files: [
          {
            path: "src/main.js",
            status: "modified",
            before: original,
            after: `// from the guest\n${original}`,
            isBinary: false,
          },
          { path: "src/util.js", status: "added", before: "", after: "export {};\n", isBinary: false },
        ],
      },
    });
    expect(await runGit(repo, "diff", "--name-only", `main...${pr.sourceBranch}`)).toBe(
      "src/main.js\nsrc/util.js",
    );

    // The spec's refusals.
    expect(await member.request("createPR", { sessionId, title: "  " })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: PR_MESSAGES.titleRequired },
    });
    expect(await member.request("createPR", { sessionId, title: "add UTIL: V1" })).toEqual({
      ok: false,
      error: { code: "conflict", message: PR_MESSAGES.duplicateTitle("add UTIL: V1") },
    });
    await gitOk(host, sessionId, { op: "add", paths: [] });
    await gitOk(host, sessionId, { op: "commit", message: "everything" });
    expect(await member.request("createPR", { sessionId, title: "Nothing new" })).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: PR_MESSAGES.noChanges },
    });
    expect(await member.request("getPRDiff", { sessionId, prId: "pr-404" })).toEqual({
      ok: false,
      error: { code: "not_found", message: PR_MESSAGES.notFound("pr-404") },
    });
  });

  it("lets only the host review, only pending PRs; approving merges into main, a conflict merges nothing", async () => {
    const { sessionId, host, guest, member, repo } = await newSession();
    const first = guest.text().split("\n")[0] ?? "";
    const replaceFirstLine = async (editor: TestEditor, line: string) => {
      editor.file().delete(0, editor.text().split("\n")[0]?.length ?? 0);
      editor.file().insert(0, line);
      await serverHas(sessionId, "src/main.js", editor.text());
    };
    await replaceFirstLine(guest, "// version A");
    const a = (await create(guest, sessionId, "Version A")).pr;
    await replaceFirstLine(guest, "// version B");
    const b = (await create(member, sessionId, "Version B")).pr;
    await replaceFirstLine(guest, first);

    // Forged reviews from a guest and a participant change nothing.
    for (const editor of [guest, member]) {
      expect(await review(editor, sessionId, a.id, "approve")).toEqual({
        ok: false,
        error: { code: "forbidden", message: PR_MESSAGES.hostOnlyReview },
      });
    }
    expect(await review(host, sessionId, a.id, "merge-it")).toEqual({
      ok: false,
      error: { code: "invalid_payload", message: PR_MESSAGES.unknownAction("merge-it") },
    });
    expect(await review(host, sessionId, "pr-0", "approve")).toEqual({
      ok: false,
      error: { code: "not_found", message: PR_MESSAGES.reviewNotFound("pr-0") },
    });

    const mainBefore = await runGit(repo, "rev-parse", "main");
    const approved = await review(host, sessionId, a.id, "approve", "Nice.");
    expect(approved).toMatchObject({
      ok: true,
      data: { pr: { id: a.id, status: "merged", reviewedBy: expect.any(String), comments: "Nice." } },
    });
    expect(await runGit(repo, "show", "main:src/main.js")).toMatch(/^\/\/ version A\n/);
    expect(await runGit(repo, "rev-parse", "main^1")).toBe(mainBefore);
    // Everyone sees the spec's transition (approved), then the merge done (merged), in that order.
    for (const editor of [host, guest, member]) {
      await waitFor(
        () => syncs(editor).some((e) => e.type === "pr-updated" && e.pr.id === a.id),
        5000,
        "pr-approved then pr-updated",
      );
      expect(
        syncs(editor)
          .flatMap((e) => ("pr" in e && e.pr.id === a.id && e.type !== "review-requested" ? [e] : []))
          .map((e) => `${e.type}:${"pr" in e ? e.pr.status : ""}`),
      ).toEqual(["pr-added:pending", "pr-approved:approved", "pr-updated:merged"]);
    }
    expect((await server.app.pulls.service.get(sessionId, a.id)).status).toBe("merged");
    expect(await review(host, sessionId, a.id, "approve")).toEqual({
      ok: false,
      error: { code: "conflict", message: PR_MESSAGES.notPending },
    });
    // The author is told, with the comment.
    await waitFor(() => (guest.received.get("prReviewed") ?? []).length === 1, 5000, "prReviewed");
    expect((guest.received.get("prReviewed") as PrReviewed[])[0]?.message).toContain("Comment: Nice.");
    expect(member.received.get("prReviewed")).toBeUndefined();
    // No second review of a reviewed PR.
    expect(await review(host, sessionId, a.id, "reject")).toEqual({
      ok: false,
      error: { code: "conflict", message: PR_MESSAGES.notPending },
    });

    // B changed the same line: approving it is refused and main stays where A put it.
    const mainAfterA = await runGit(repo, "rev-parse", "main");
    expect(await review(host, sessionId, b.id, "approve")).toEqual({
      ok: false,
      error: { code: "conflict", message: PR_MESSAGES.mergeConflict },
    });
    expect(await runGit(repo, "rev-parse", "main")).toBe(mainAfterA);
    expect(await review(host, sessionId, b.id, "request-changes", "Rebase on A, please.")).toMatchObject({
      ok: true,
      data: { pr: { status: "changes-requested", comments: "Rebase on A, please." } },
    });
    await waitFor(() => (member.received.get("prReviewed") ?? []).length === 1, 5000, "the member told");
    // Everyone's terminal says so too.
    const history = await server.app.terminal.service.history(sessionId);
    expect(history.map((e) => e.content).join("\n")).toContain(
      `"Version B" was sent back with changes requested`,
    );
  });

  it("tells an author who was away about the review when they come back; pr commands in the terminal", async () => {
    const { sessionId, host, guest, guestSecret } = await newSession();
    guest.file().insert(0, "// away\n");
    await serverHas(sessionId, "src/main.js", guest.text());
    const { pr } = await create(guest, sessionId, "While away");
    await guest.close();
    await review(host, sessionId, pr.id, "reject", "Not now.");

    const back = await editors.open(undefined, { guestSecret });
    await back.join(sessionId);
    back.send("requestPRSync", sessionId);
    await waitFor(() => syncs(back).length > 0 && (back.received.get("prReviewed") ?? []).length === 1);
    expect(syncs(back)[0]).toMatchObject({ type: "pr-sync", prs: [{ id: pr.id, status: "rejected" }] });
    expect((back.received.get("prReviewed") as PrReviewed[])[0]?.message).toContain("Not now.");
    // Told once only.
    back.send("requestPRSync", sessionId);
    await waitFor(() => syncs(back).length === 2);
    expect(back.received.get("prReviewed")).toHaveLength(1);

    expect(await typeLine(back, sessionId, "pr create")).toEqual([
      { type: "error", content: PR_MESSAGES.titleRequired },
    ]);
    expect(await typeLine(back, sessionId, "pr status")).toEqual([
      { type: "error", content: PR_MESSAGES.idRequired },
    ]);
    expect(await typeLine(back, sessionId, "pr status pr-1")).toEqual([
      { type: "error", content: PR_MESSAGES.notFound("pr-1") },
    ]);
    expect(await typeLine(back, sessionId, "pr frobnicate")).toEqual([
      { type: "error", content: PR_MESSAGES.unknownCommand("frobnicate") },
    ]);
    back.file().insert(0, "// from the terminal\n");
    await serverHas(sessionId, "src/main.js", back.text());
    const [created] = await typeLine(back, sessionId, 'pr new "From the terminal"');
    expect(created?.content).toMatch(/^Created pull request pr-\d+ "From the terminal" \(1 files\)\. /);
    expect(created?.content).toContain(PR_MESSAGES.waitingForReview);
    const [list] = await typeLine(host, sessionId, "pr list");
    expect(list?.content).toContain(`${pr.id}  [rejected]  "While away" by Anonymous`);
    expect(list?.content).toContain('[pending]  "From the terminal"');
    const [status] = await typeLine(host, sessionId, `pr status ${pr.id}`);
    expect(status?.content).toContain("comment: Not now.");
    const [help] = await typeLine(host, sessionId, "pr help");
    expect(help?.content).toContain("pr create <title>");

    // A socket that joined another session is refused.
    const other = await buildSession(server.api, "other");
    const outsider = await editors.open(other.host.token);
    await outsider.join(other.sessionId);
    expect(await review(outsider, sessionId, pr.id, "approve")).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
  });
  it("names the PR's branch as its author asked, and refuses a branch that exists or git would not take", async () => {
    const { sessionId, guest, member, repo } = await newSession();
    guest.file().insert(0, "// named\n");
    await serverHas(sessionId, "src/main.js", guest.text());
    const mainBefore = await runGit(repo, "rev-parse", "main");
    const named = await guest.request("createPR", {
      sessionId,
      title: "Named branch",
      sourceBranch: " feature/named ",
    });
    if (!named.ok) throw new Error(named.error.message);
    expect(named.data.pr.sourceBranch).toBe("feature/named");
    expect(await runGit(repo, "log", "-1", "--format=%s|%P", "feature/named")).toBe(
      `PR: Named branch|${mainBefore}`,
    );
    const namedHead = await runGit(repo, "rev-parse", "feature/named");

    const refusals = [
      {
        sourceBranch: "feature/named",
        code: "conflict",
        message: GIT_MESSAGES.branchExists("feature/named"),
      },
      { sourceBranch: "main", code: "conflict", message: GIT_MESSAGES.branchExists("main") },
      {
        sourceBranch: "bad..name",
        code: "invalid_payload",
        message: GIT_MESSAGES.branchNameInvalid("bad..name"),
      },
    ];
    for (const [i, { sourceBranch, code, message }] of refusals.entries()) {
      expect(await member.request("createPR", { sessionId, title: `Again ${i}`, sourceBranch })).toEqual({
        ok: false,
        error: { code, message },
      });
    }
    // Nothing was made or moved by the refusals.
    expect(await runGit(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/")).toBe(
      "feature/named\nmain",
    );
    expect(await runGit(repo, "rev-parse", "feature/named")).toBe(namedHead);
    expect(await runGit(repo, "rev-parse", "main")).toBe(mainBefore);
    expect((await server.app.pulls.service.list(sessionId)).map((pr) => pr.title)).toEqual(["Named branch"]);
  });

  it("gives an empty main a first commit before a PR, so the PR adds every file and merges into main", async () => {
    const { sessionId, host, guest, repo } = await newSession({ isMainEmpty: true });
    await guest.request("createFile", {
      sessionId,
      path: "src/util.js",
      kind: "file",
      content: "export {};\n",
    });
    await serverHas(sessionId, "src/util.js", "export {};\n");
    const main = guest.text();
    const { pr } = await create(guest, sessionId, "First of all");

    // main got an empty root commit by the server; the PR's branch grows from it.
    expect(await runGit(repo, "log", "--format=%s|%an|%T|%P", "main")).toBe(
      "Initial commit|Ensemble|4b825dc642cb6eb9a060e54bf8d69288fbee4904|",
    );
    expect(await runGit(repo, "rev-parse", `${pr.sourceBranch}^`)).toBe(
      await runGit(repo, "rev-parse", "main"),
    );
    const diff = await host.request("getPRDiff", { sessionId, prId: pr.id });
    expect(diff).toEqual({
      ok: true,
      data: {
        prId: pr.id,
        files: [
          { path: "src/main.js", status: "added", before: "", after: main, isBinary: false },
          { path: "src/util.js", status: "added", before: "", after: "export {};\n", isBinary: false },
        ],
      },
    });

    expect(await review(host, sessionId, pr.id, "approve")).toMatchObject({
      ok: true,
      data: { pr: { status: "merged" }, message: "Approved: merged into main." },
    });
    expect(await runGit(repo, "rev-parse", "main")).toBe(await runGit(repo, "rev-parse", pr.sourceBranch));
    // The host's repository agrees: everything is committed, nothing left staged.
    const status = await host.request("gitOperation", { sessionId, operation: { op: "status" } });
    expect(status).toMatchObject({ ok: true, data: { status: { branch: "main", entries: [] } } });
  });
});
