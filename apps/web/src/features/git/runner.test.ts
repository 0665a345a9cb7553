import { GIT_MESSAGES, GIT_STORAGE_KEYS, type GitOperation, type GitOutcome } from "@ensemble/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { failureText, type GitResult, GitRunner } from "./runner";
import { resetGit, useGitStore } from "./store";

const outcome = (message: string, extra: Partial<GitOutcome> = {}): GitOutcome => ({
  message,
  status: { branch: "main", entries: [{ path: "src/main.js", status: "modified", staged: false }] },
  branches: ["* main", "  feature"],
  ...extra,
});
const ok = (data: GitOutcome) => ({ ok: true as const, data });
const refused = (code: string, message: string) => ({ ok: false as const, error: { code, message } });
const github = { token: "ghp_secret", owner: "octo", repo: "demo" };

/** A fake server: each sent operation waits until the test answers it. */
function fakeServer() {
  const sent: { operation: GitOperation; answer: (result: GitResult) => void }[] = [];
  const send = (operation: GitOperation) =>
    new Promise<GitResult>((answer) => {
      sent.push({ operation, answer });
    });
  return { sent, send };
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

let storage: Storage;

beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal("window", { localStorage: storage });
  resetGit();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("GitRunner.run", () => {
  it("keeps one operation in flight: a second is refused while the first runs, its name is busy", async () => {
    const server = fakeServer();
    const runner = new GitRunner(server.send);
    const first = runner.run({ op: "commit", message: "one" });
    expect(useGitStore.getState().busy).toBe("commit");
    const second = await runner.run({ op: "push", github });
    expect(second).toEqual({ ok: false, error: { code: "busy", message: GIT_MESSAGES.busy } });
    await vi.waitFor(() => expect(server.sent).toHaveLength(1));
    server.sent[0]?.answer(ok(outcome("[main abc123] one")));
    expect(await first).toMatchObject({ ok: true, data: { message: "[main abc123] one" } });
    expect(useGitStore.getState().busy).toBeNull();
    expect(server.sent.map((s) => s.operation.op)).toEqual(["commit"]);
    // Free again once answered.
    void runner.run({ op: "log" });
    await vi.waitFor(() => expect(server.sent).toHaveLength(2));
  });

  it("keeps the answer's status and branches, and frees busy when no answer comes", async () => {
    const runner = new GitRunner(() => Promise.resolve(ok(outcome("Staged."))));
    await runner.run({ op: "add", paths: [] });
    expect(useGitStore.getState().status?.entries[0]?.path).toBe("src/main.js");
    expect(useGitStore.getState().branches).toEqual(["* main", "  feature"]);

    const silent = new GitRunner(() => Promise.resolve(refused("timeout", "The server did not answer.")));
    expect(await silent.run({ op: "status" })).toMatchObject({ ok: false, error: { code: "timeout" } });
    expect(useGitStore.getState().busy).toBeNull();
  });

  it("waits for a background refresh on the wire instead of sending beside it", async () => {
    const server = fakeServer();
    const runner = new GitRunner(server.send);
    const refresh = runner.refreshNow();
    const commit = runner.run({ op: "commit", message: "x" });
    await Promise.resolve();
    expect(server.sent.map((s) => s.operation.op)).toEqual(["status"]);
    server.sent[0]?.answer(ok(outcome("status")));
    await refresh;
    await vi.waitFor(() => expect(server.sent).toHaveLength(2));
    server.sent[1]?.answer(ok(outcome("committed")));
    expect(await commit).toMatchObject({ ok: true });
  });
});

describe("GitRunner refreshes", () => {
  it("asks for the status once, a second after the last change", async () => {
    vi.useFakeTimers();
    const send = vi.fn(() => Promise.resolve(ok(outcome("status"))));
    const runner = new GitRunner(send, 1000);
    runner.refreshSoon();
    await vi.advanceTimersByTimeAsync(600);
    runner.refreshSoon();
    await vi.advanceTimersByTimeAsync(600);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(400);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ op: "status" });
  });

  it("skips a refresh while an operation runs and does it after", async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const runner = new GitRunner(server.send, 1000);
    const push = runner.run({ op: "push", github });
    await vi.advanceTimersByTimeAsync(0);
    runner.refreshSoon();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.sent.map((s) => s.operation.op)).toEqual(["push"]);
    server.sent[0]?.answer(ok(outcome("pushed")));
    await push;
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.sent.map((s) => s.operation.op)).toEqual(["push", "status"]);
  });

  it("sends nothing after cancelRefresh", async () => {
    vi.useFakeTimers();
    const send = vi.fn(() => Promise.resolve(ok(outcome("status"))));
    const runner = new GitRunner(send, 1000);
    runner.refreshSoon();
    runner.cancelRefresh();
    await vi.advanceTimersByTimeAsync(2000);
    expect(send).not.toHaveBeenCalled();
  });
});

describe("the GitHub connection", () => {
  const user = { username: "octo", name: "Octo Cat", avatarUrl: "http://a/b.png", url: "http://gh/octo" };

  it("stores the token, owner and repository once GitHub accepted them", async () => {
    const runner = new GitRunner(() => Promise.resolve(ok(outcome("Connected", { user }))));
    await runner.run({ op: "connect", github });
    expect(storage.getItem(GIT_STORAGE_KEYS.githubToken)).toBe("ghp_secret");
    expect(storage.getItem(GIT_STORAGE_KEYS.gitRepoOwner)).toBe("octo");
    expect(storage.getItem(GIT_STORAGE_KEYS.gitRepoName)).toBe("demo");
    expect(useGitStore.getState()).toMatchObject({ target: github, user });
    // A new session in this browser starts connected.
    resetGit();
    expect(useGitStore.getState().target).toEqual(github);
  });

  it("stores nothing when the connect is refused for another reason", async () => {
    const runner = new GitRunner(() =>
      Promise.resolve(refused("not_found", GIT_MESSAGES.repositoryNotFound("octo", "demo"))),
    );
    const result = await runner.run({ op: "connect", github });
    expect(result).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(storage.getItem(GIT_STORAGE_KEYS.githubToken)).toBeNull();
    expect(useGitStore.getState().target).toBeNull();
  });

  it("forgets the stored token when GitHub refuses it, keeping owner and repository", async () => {
    storage.setItem(GIT_STORAGE_KEYS.githubToken, "ghp_old");
    storage.setItem(GIT_STORAGE_KEYS.gitRepoOwner, "octo");
    storage.setItem(GIT_STORAGE_KEYS.gitRepoName, "demo");
    resetGit();
    useGitStore.setState({ user });
    expect(useGitStore.getState().target?.token).toBe("ghp_old");

    const runner = new GitRunner(() => Promise.resolve(refused("github_auth", GIT_MESSAGES.authFailed)));
    const result = await runner.run({ op: "pull", github: { ...github, token: "ghp_old" } });
    expect(result).toEqual({ ok: false, error: { code: "github_auth", message: GIT_MESSAGES.authFailed } });
    expect(storage.getItem(GIT_STORAGE_KEYS.githubToken)).toBeNull();
    expect(storage.getItem(GIT_STORAGE_KEYS.gitRepoOwner)).toBe("octo");
    expect(useGitStore.getState()).toMatchObject({ target: null, user: null });
  });

  it("keeps the connection through other failures", async () => {
    useGitStore.setState({ target: github });
    const runner = new GitRunner(() => Promise.resolve(refused("conflict", GIT_MESSAGES.pushRejected)));
    await runner.run({ op: "push", github });
    expect(useGitStore.getState().target).toEqual(github);
  });
});

describe("failureText", () => {
  it("wraps a failed git command in the spec's words and shows other refusals as they are", () => {
    expect(failureText({ code: "git_failed", message: "fatal: bad object" })).toBe(
      "Operation failed: fatal: bad object",
    );
    expect(failureText({ code: "forbidden", message: GIT_MESSAGES.hostOnly })).toBe(GIT_MESSAGES.hostOnly);
  });
});
