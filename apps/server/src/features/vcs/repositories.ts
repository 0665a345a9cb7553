import fs from "node:fs/promises";
import path from "node:path";
import { GIT_MESSAGES } from "@ensemble/protocol";
import { memoryFlight, type SingleFlight } from "../../cluster/flights";
import { DomainError } from "../../errors";
import type { WorkspaceReader } from "../collab/index";
import { GitCommandError, runGit } from "./git";
import { Worktree } from "./worktree";

export interface Author {
  name: string;
  email: string;
}

/** Who asks for an operation: every operation checks `isHost`; commits carry `author`. */
export interface Caller {
  isHost: boolean;
  author: () => Promise<Author>;
}

/** One operation's view of the session's repository, its working tree just written. */
export interface Context {
  sessionId: string;
  dir: string;
  tree: Worktree;
  /** The live files as they were written, before git ran: `applyTree`'s base. */
  base: Map<string, string>;
  /** Whether writing the live files changed the working tree since the last operation. */
  wroteFiles: boolean;
  caller: Caller;
}

/**
 * The sessions' repositories under `reposDir` (each created on first use, branch `main`) and
 * their queue: one piece of work at a time per session, each starting with the working tree
 * written from the live workspace. Answers the function that queues a piece of work; git's
 * failures come out as DomainError.
 */
export function createRepositoryQueue(
  reposDir: string,
  workspace: WorkspaceReader,
  /** Holds each repository across a cluster's nodes (they share `reposDir`). */
  flights: SingleFlight = memoryFlight(),
) {
  const worktrees = new Map<string, Worktree>();
  const queues = new Map<string, Promise<unknown>>();

  /** Runs `work` after the session's previous operation, its working tree up to date; no role check. */
  return function queued<T>(
    sessionId: string,
    caller: Caller,
    work: (context: Context) => Promise<T>,
  ): Promise<T> {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const files = workspace.files(sessionId);
        if (!files) throw new DomainError("git_failed", GIT_MESSAGES.notLoaded);
        // This queue orders this node's work; the hold waits for another node's, if any.
        const release = await flights.hold(`git:${sessionId}`);
        try {
          const tree = await open(sessionId);
          const wroteFiles = await tree.write(files);
          const base = new Map(files.map((f) => [f.path, f.content]));
          return await work({ sessionId, dir: tree.dir, tree, base, wroteFiles, caller });
        } finally {
          // Another node may run git here next: read the tree again rather than trust what
          // this node last wrote into it.
          if (flights.isShared) worktrees.delete(sessionId);
          await release();
        }
      });
    queues.set(sessionId, next);
    const forget = () => {
      if (queues.get(sessionId) === next) queues.delete(sessionId);
    };
    next.then(forget, forget);
    return next.catch((error: unknown) => {
      if (error instanceof GitCommandError)
        throw new DomainError("git_failed", error.stderr.trim() || error.message);
      throw error;
    });
  };

  async function open(sessionId: string): Promise<Worktree> {
    const known = worktrees.get(sessionId);
    if (known) return known;
    // Session ids are server-made (or the demo's): no path separators, but check anyway.
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new DomainError("invalid_payload", "Invalid session id");
    const dir = path.join(reposDir, sessionId);
    await fs.mkdir(dir, { recursive: true });
    if (!(await exists(path.join(dir, ".git"))))
      await runGit(dir, ["init", "--quiet", "--initial-branch=main"]);
    const tree = new Worktree(dir);
    worktrees.set(sessionId, tree);
    return tree;
  }
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
