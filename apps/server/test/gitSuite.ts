import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { Ack, GithubTarget, GitOperation, GitOutcome } from "@ensemble/protocol";
import { afterAll, beforeAll } from "vitest";
import { editorPool, type TestEditor, waitFor } from "./collabClient";
import { startFakeGithub } from "./fakeGithub";
import { buildSession, type DbKind, startTestServer, type TestServer } from "./harness";

export const execFileAsync = promisify(execFile);
export const OWNER = "octo";

/** Sends one git operation over the socket and resolves with its ack. */
export function gitOp(
  editor: TestEditor,
  sessionId: string,
  operation: GitOperation,
): Promise<Ack<GitOutcome>> {
  return editor.request("gitOperation", { sessionId, operation }, 60_000);
}

export async function ok(
  editor: TestEditor,
  sessionId: string,
  operation: GitOperation,
): Promise<GitOutcome> {
  const ack = await gitOp(editor, sessionId, operation);
  if (!ack.ok) throw new Error(`${operation.op} refused: ${ack.error.code} ${ack.error.message}`);
  return ack.data;
}

/** Every file under `dir` (recursively) whose bytes contain `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await fs.readFile(file)).includes(needle)) found.push(file);
  }
  return found;
}

export type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;

/**
 * The setup of a suite about git against GitHub, for one database: a test server pointed at
 * a fresh fake GitHub (user `octo`, one token), editors closed at the end, and `newSession`:
 * a host and a guest synced in a new session, with a fresh repository name. Call it inside a
 * `describe`; `current()` gives the server, the fake and the token once `beforeAll` ran.
 */
export function gitSuite(kind: DbKind) {
  let server: TestServer;
  let github: FakeGithub;
  const editors = editorPool(() => server.url);
  let token = "";
  let repoCounter = 0;

  beforeAll(async () => {
    github = await startFakeGithub({
      user: { id: 7, login: OWNER, email: "octo@example.test", name: "Octo Cat" },
    });
    token = github.issueToken();
    server = await startTestServer(kind, { GITHUB_API_URL: github.apiUrl, GITHUB_GIT_URL: github.gitUrl });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
    await github.close();
  });

  /** A session with its host (signed in) and a guest, synced; and a fresh repository name. */
  async function newSession() {
    const { host: hostUser, sessionId } = await buildSession(server.api, "git");
    const host = await editors.open(hostUser.token);
    const guest = await editors.open();
    await host.join(sessionId);
    await guest.join(sessionId);
    await waitFor(() => host.client.synced && guest.client.synced);
    const target: GithubTarget = { token, owner: OWNER, repo: `project-${kind}-${++repoCounter}` };
    return {
      sessionId,
      host,
      guest,
      hostUser,
      target,
      repoDir: path.join(server.dataDir, "repos", sessionId),
    };
  }

  /** Waits until the server's live copy of `file` satisfies `predicate`. */
  const liveText = (sessionId: string, file = "src/main.js") =>
    server.app.collab.workspace.files(sessionId)?.find((f) => f.path === file)?.content;

  return { editors, newSession, liveText, current: () => ({ server, github, token }) };
}
