import { GIT_MESSAGES, PR_MESSAGES } from "@ensemble/protocol";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestEditor, waitFor } from "../../../test/collabClient";
import { type FakeGithub, gitSuite } from "../../../test/gitSuite";
import { DATABASES, type TestServer } from "../../../test/harness";

const syncs = (editor: TestEditor) => editor.events("prSync");

describe.each(DATABASES)("pull requests published to GitHub on %s", (kind) => {
  const { editors, current } = gitSuite(kind);
  let server: TestServer;
  let github: FakeGithub;
  let token = "";
  let counter = 0;
  beforeAll(() => {
    ({ server, github, token } = current());
  });

  /**
   * A session whose main has one commit (none with `isMainEmpty`), a guest's pending PR,
   * and an empty repository on GitHub.
   */
  async function pendingPr(title: string, { isMainEmpty = false } = {}) {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "publish");
    const operations = [
      { op: "add" as const, paths: [] },
      { op: "commit" as const, message: "start" },
    ];
    for (const operation of isMainEmpty ? [] : operations) {
      const ack = await host.request("gitOperation", { sessionId, operation });
      expect(ack.ok).toBe(true);
    }
    await guest.request("createFile", {
      sessionId,
      path: "src/util.js",
      kind: "file",
      content: "export {};\n",
    });
    await waitFor(
      () => server.app.collab.workspace.files(sessionId)?.some((f) => f.path === "src/util.js") ?? false,
    );
    const created = await guest.request("createPR", {
      sessionId,
      title,
      description: "Adds util.",
    });
    if (!created.ok) throw new Error(created.error.message);
    const repo = `published-${kind}-${++counter}`;
    await github.createRepo("octo", repo, { private: false });
    return { sessionId, host, guest, pr: created.data.pr, target: { token, owner: "octo", repo } };
  }

  it("opens the pull request on GitHub when approving, with the PR's branch, base and files", async () => {
    const { sessionId, host, guest, pr, target } = await pendingPr("Util module");
    const ack = await host.request("reviewPR", {
      sessionId,
      prId: pr.id,
      action: "approve",
      github: target,
    });
    expect(ack).toMatchObject({ ok: true, data: { message: PR_MESSAGES.createdOnGithub } });
    const pull = github.pulls.find((p) => p.repo === target.repo);
    expect(pull).toMatchObject({ head: pr.sourceBranch, base: "main", title: "Util module", via: "rest" });
    expect(pull?.body).toContain("Adds util.");
    expect(await github.readFile("octo", target.repo, pr.sourceBranch, "src/util.js")).toBe("export {};\n");
    // GitHub had no main: it got the commit the PR was made on, so the PR shows only its change.
    expect((await github.log("octo", target.repo, "main"))[0]?.subject).toBe("start");
    const data = ack.ok ? ack.data : undefined;
    expect(data?.pr).toMatchObject({
      status: "merged",
      prNumber: pull?.number,
      prUrl: `${github.url}/octo/${target.repo}/pull/${pull?.number}`,
    });
    await waitFor(
      () => syncs(guest).some((e) => e.type === "pr-updated" && e.pr.prNumber === pull?.number),
      5000,
      "pr-updated with the GitHub number",
    );
  });

  it("falls back to GraphQL, then to the compare page; a refused token leaves the PR merged here", async () => {
    const viaGraphql = await pendingPr("Through GraphQL");
    github.refusePulls({ rest: 1, status: 500 });
    const first = await viaGraphql.host.request("reviewPR", {
      sessionId: viaGraphql.sessionId,
      prId: viaGraphql.pr.id,
      action: "approve",
      github: viaGraphql.target,
    });
    expect(first).toMatchObject({ ok: true, data: { message: PR_MESSAGES.createdOnGithub } });
    expect(github.pulls.find((p) => p.repo === viaGraphql.target.repo)?.via).toBe("graphql");

    const viaCompare = await pendingPr("Through the compare page");
    github.refusePulls({ rest: 1, status: 500, graphql: 1 });
    const second = await viaCompare.host.request("reviewPR", {
      sessionId: viaCompare.sessionId,
      prId: viaCompare.pr.id,
      action: "approve",
      github: viaCompare.target,
    });
    if (!second.ok) throw new Error(second.error.message);
    expect(second.data.message.startsWith(`${PR_MESSAGES.githubFailed}: `)).toBe(true);
    expect(second.data.pr).toMatchObject({ status: "merged", prNumber: null });
    const compare = new URL(second.data.compareUrl ?? "");
    expect(compare.pathname).toBe(
      `/octo/${viaCompare.target.repo}/compare/main...${viaCompare.pr.sourceBranch}`,
    );
    expect(compare.searchParams.get("quick_pull")).toBe("1");
    expect(compare.searchParams.get("title")).toBe("Through the compare page");

    const refused = await pendingPr("Wrong token");
    const third = await refused.host.request("reviewPR", {
      sessionId: refused.sessionId,
      prId: refused.pr.id,
      action: "approve",
      github: { ...refused.target, token: "ghp_wrong" },
    });
    expect(third).toMatchObject({
      ok: true,
      data: {
        message: `${PR_MESSAGES.githubFailed}: ${GIT_MESSAGES.authFailed}`,
        pr: { status: "merged" },
      },
    });
  });
  it("gives GitHub an empty main when the PR was made before main had a commit, so it opens against main", async () => {
    const { sessionId, host, pr, target } = await pendingPr("Everything new", { isMainEmpty: true });
    const ack = await host.request("reviewPR", {
      sessionId,
      prId: pr.id,
      action: "approve",
      github: target,
    });
    expect(ack).toMatchObject({ ok: true, data: { message: PR_MESSAGES.createdOnGithub } });
    const pull = github.pulls.find((p) => p.repo === target.repo);
    expect(pull).toMatchObject({ head: pr.sourceBranch, base: "main", title: "Everything new" });
    expect(await github.log("octo", target.repo, "main")).toEqual([
      { sha: expect.any(String), subject: "Initial commit", author: "Ensemble" },
    ]);
    expect(await github.readFile("octo", target.repo, pr.sourceBranch, "src/util.js")).toBe("export {};\n");
  });

  it("posts the approval's comment on the GitHub pull request; a refused comment leaves it merged and says so", async () => {
    const commented = await pendingPr("With a comment");
    const ack = await commented.host.request("reviewPR", {
      sessionId: commented.sessionId,
      prId: commented.pr.id,
      action: "approve",
      comment: "  Thanks, merged here.  ",
      github: commented.target,
    });
    if (!ack.ok) throw new Error(ack.error.message);
    expect(ack.data.message).toBe(PR_MESSAGES.createdOnGithub);
    expect(ack.data.pr).toMatchObject({ status: "merged", comments: "Thanks, merged here." });
    const pull = github.pulls.find((p) => p.repo === commented.target.repo);
    expect(github.comments.filter((c) => c.repo === commented.target.repo)).toEqual([
      {
        id: expect.any(Number),
        owner: "octo",
        repo: commented.target.repo,
        issue: pull?.number,
        body: "Thanks, merged here.",
        author: "octo",
      },
    ]);

    // Without a comment nothing is posted.
    const silent = await pendingPr("Without a comment");
    const quiet = await silent.host.request("reviewPR", {
      sessionId: silent.sessionId,
      prId: silent.pr.id,
      action: "approve",
      github: silent.target,
    });
    expect(quiet).toMatchObject({ ok: true, data: { message: PR_MESSAGES.createdOnGithub } });
    expect(github.comments.filter((c) => c.repo === silent.target.repo)).toEqual([]);

    const refused = await pendingPr("Comment refused");
    github.refuseComments(1, 500);
    const answer = await refused.host.request("reviewPR", {
      sessionId: refused.sessionId,
      prId: refused.pr.id,
      action: "approve",
      comment: "Lost on the way.",
      github: refused.target,
    });
    if (!answer.ok) throw new Error(answer.error.message);
    const opened = github.pulls.find((p) => p.repo === refused.target.repo);
    expect(answer.data.pr).toMatchObject({ status: "merged", prNumber: opened?.number });
    expect(answer.data.message).toBe(PR_MESSAGES.commentNotPosted("GitHub API error: 500 Server Error"));
    expect(github.comments.filter((c) => c.repo === refused.target.repo)).toEqual([]);
  });
});
