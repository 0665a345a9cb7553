import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { GitOutcomeSchema } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEditor, type TestEditor, waitFor } from "../../test/collabClient";
import { buildSession, startTestServer, type TestServer } from "../../test/harness";

const git = promisify(execFile);
// The machine's Redis: these tests fail, not skip, without it (the test setup provides it).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const ROUNDS = 6;

describe("two nodes sharing one DATA_DIR run git on one session's repository at once", () => {
  let nodes: TestServer[] = [];
  let dataDir = "";
  const editors: TestEditor[] = [];

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-shared-"));
    // Both nodes serve the session (as in a handover's moment, or a stale route): handover off.
    const env = { REDIS_URL, DATA_DIR: dataDir, SESSION_HANDOVER_MAX: "0" };
    const first = await startTestServer("postgres", { ...env, NODE_ID: "git-a" });
    const second = await startTestServer("postgres", { ...env, NODE_ID: "git-b" }, { db: first.db });
    nodes = [first, second];
    await Promise.all(nodes.map((n) => n.app.cluster.ready()));
  });

  afterAll(async () => {
    await Promise.all(editors.map((e) => e.close()));
    for (const node of [...nodes].reverse()) await node.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("keeps every commit, branch and merged pull request, with no index.lock error", async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const { host, sessionId } = await buildSession(a.api, "shared repository");
    // The host on each node, so each has the session's live files to commit.
    const [onA, onB] = [await openEditor(a.url, host.token), await openEditor(b.url, host.token)];
    editors.push(onA, onB);
    for (const editor of [onA, onB]) expect((await editor.join(sessionId)).ok).toBe(true);
    await waitFor(() => onB.text().length > 0, 5000, "the starter file on the second node");

    const answers: { node: string; status: number; body: unknown }[] = [];
    const run = async (node: TestServer, name: string, operation: unknown) => {
      const { status, body } = await node.api.post(`/api/session/${sessionId}/git`, operation, host.token);
      answers.push({ node: name, status, body });
      return { status, body: status === 200 ? GitOutcomeSchema.parse(body) : undefined };
    };
    const committed: string[] = [];
    /** Adds a node's own file and commits it; the commit's hash when it was made. */
    const commitOwn = async (node: TestServer, editor: TestEditor, name: string, round: number) => {
      const file = `src/${name}${round}.js`;
      const created = await editor.request("createFile", {
        sessionId,
        path: file,
        kind: "file",
        content: `// ${name} ${round}\n`,
      });
      expect(created.ok).toBe(true);
      await waitFor(() => node.app.collab.workspace.files(sessionId)?.some((f) => f.path === file) ?? false);
      await run(node, name, { op: "add", paths: [file] });
      const { body } = await run(node, name, { op: "commit", message: `${name} ${round}` });
      const hash = /^Committed ([0-9a-f]{7,})/.exec(body?.message ?? "")?.[1];
      if (hash) committed.push(hash);
    };

    // A first commit on main, so branches and pull requests have a base.
    await run(a, "a", { op: "add", paths: ["."] });
    expect((await run(a, "a", { op: "commit", message: "base" })).status).toBe(200);
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all([
        commitOwn(a, onA, "a", round),
        commitOwn(b, onB, "b", round),
        run(a, "a", { op: "branch", name: `from-a-${round}` }),
        run(b, "b", { op: "branch", name: `from-b-${round}` }),
        run(round % 2 ? a : b, "status", { op: "status" }),
      ]);
    }
    // A pull request made on one node is approved (merged on the server) on the other while
    // the first node commits.
    onA.file().insert(0, "// reviewed change\n");
    await waitFor(
      () =>
        a.app.collab.workspace.files(sessionId)?.some((f) => f.content.startsWith("// reviewed")) ?? false,
    );
    const created = await onA.request("createPR", { sessionId, title: "Across nodes" });
    if (!created.ok) throw new Error(`createPR: ${created.error.message}`);
    const [approved] = await Promise.all([
      onB.request("reviewPR", { sessionId, prId: created.data.pr.id, action: "approve" }),
      commitOwn(a, onA, "a", ROUNDS),
    ]);
    expect(approved).toMatchObject({ ok: true });

    // No answer was a failure: one git process at a time in the shared folder. A commit may
    // find nothing to commit: the other node's commit took its staged file along (both
    // nodes share one index), which the history check below proves.
    const failed = answers.filter(
      ({ status, body }) => status !== 200 && !JSON.stringify(body).includes("Nothing to commit"),
    );
    expect(failed).toEqual([]);
    expect(JSON.stringify(answers)).not.toContain("index.lock");
    const repo = path.join(dataDir, "repos", sessionId);
    await expect(fs.access(path.join(repo, ".git/index.lock"))).rejects.toThrow();
    // Every commit a node reported is in the history; so is every branch and the merge.
    expect(committed.length).toBeGreaterThanOrEqual(ROUNDS);
    const { stdout: all } = await git("git", ["log", "--all", "--format=%H %s"], { cwd: repo });
    for (const hash of committed) expect(all).toMatch(new RegExp(`^${hash}`, "m"));
    const { stdout: touched } = await git("git", ["log", "--all", "--name-only", "--format="], { cwd: repo });
    for (let round = 0; round <= ROUNDS; round++)
      for (const name of round < ROUNDS ? ["a", "b"] : ["a"])
        expect(touched.split("\n")).toContain(`src/${name}${round}.js`);
    // The approved pull request is on main (merged, or fast-forwarded).
    const { stdout: main } = await git("git", ["log", "main", "--format=%s"], { cwd: repo });
    expect(main.split("\n")).toContain("PR: Across nodes");
    const { stdout: branches } = await git("git", ["branch", "--format=%(refname:short)"], { cwd: repo });
    for (let round = 0; round < ROUNDS; round++)
      for (const name of ["a", "b"]) expect(branches.split("\n")).toContain(`from-${name}-${round}`);
    await git("git", ["fsck", "--no-dangling"], { cwd: repo });
  }, 120_000);
});
