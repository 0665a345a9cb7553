import { GIT_MESSAGES, type GitOperation, type TerminalEntry } from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { CommandDefinition } from "../terminal/index";
import type { Author, VcsService } from "./service";

/** Splits a typed line into words, keeping "quoted" and 'quoted' text together. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

const out = (content: string): TerminalEntry => ({ type: "output", content });
const err = (content: string): TerminalEntry => ({ type: "error", content });

/** What a typed `git …` line asks for, or the error line that answers it. */
export function parseGitLine(
  words: readonly string[],
  github: Extract<GitOperation, { op: "push" }>["github"] | undefined,
): GitOperation | { error: string } {
  const [op = "", ...rest] = words;
  const names = rest.filter((w) => w !== "--");
  const needGithub = (make: (g: NonNullable<typeof github>) => GitOperation) =>
    github ? make(github) : { error: GIT_MESSAGES.authRequired };
  switch (op) {
    case "status":
    case "log":
    case "diff":
    case "init":
      return { op };
    case "add":
      return { op: "add", paths: names.filter((p) => p !== "." && p !== "-A" && p !== "--all") };
    case "reset":
    case "restore":
      return { op: "unstage", paths: names.filter((p) => p !== "--staged" && p !== ".") };
    case "commit": {
      const at = rest.indexOf("-m");
      return { op: "commit", message: at === -1 ? "" : (rest[at + 1] ?? "") };
    }
    case "branch":
      return { op: "branch", name: names[0] };
    case "checkout":
    case "switch":
      return names[0] ? { op: "switch", branch: names[0] } : { error: `'git ${op}' requires a branch name` };
    case "merge":
      return names[0] ? { op: "merge", branch: names[0] } : { error: "'git merge' requires a branch name" };
    case "push":
    case "pull":
      return needGithub((g) => ({ op, github: g }));
    case "auth":
      return needGithub((g) => ({ op: "connect", github: g }));
    default:
      return { error: `Unsupported git operation: ${op}`.trim() };
  }
}

/** The terminal's lines for an operation's outcome. */
function describe(operation: GitOperation, outcome: Awaited<ReturnType<VcsService["run"]>>): string {
  switch (operation.op) {
    case "status": {
      const lines = outcome.status.entries.map(
        (e) => `  ${e.staged ? "staged   " : "unstaged "} ${e.status.padEnd(9)} ${e.path}`,
      );
      return [
        `On branch ${outcome.status.branch}`,
        ...(lines.length ? lines : ["nothing to commit, working tree clean"]),
      ].join("\n");
    }
    case "branch":
      if (operation.name === undefined) return outcome.branches.join("\n");
      break;
    case "connect":
      if (outcome.user) return `Authenticated as ${outcome.user.username}. ${outcome.message}`;
      break;
  }
  const applied = outcome.applied;
  const notes = applied
    ? [
        ...applied.merged.map((p) => `${p} was being edited: the incoming changes were merged into it.`),
        ...applied.kept.map((p) => `${p} was being edited: the edit is kept as it is (see git diff).`),
        ...applied.refused.map((r) => `${r.path} could not be written: ${r.message}`),
      ]
    : [];
  return [outcome.message, outcome.output, ...notes].filter(Boolean).join("\n");
}

/**
 * The terminal's `git` command for the host: the Git panel's operations as typed lines.
 * `push`, `pull` and `auth` use the GitHub connection the host's browser sent with the line.
 */
export function gitCommand(
  vcs: VcsService,
  authorOf: (userId: string | undefined, name: string) => Promise<Author>,
): CommandDefinition {
  return {
    name: "git",
    summary:
      'version control (host only): git status | add [paths] | reset [paths] | commit -m "msg" | branch [name] | switch <branch> | merge <branch> | log | diff | push | pull | auth | init',
    async execute({ sessionId, who, line, github, reply }) {
      const [, ...words] = splitWords(line);
      if (!who.isHost) return reply([err(GIT_MESSAGES.hostOnly)]);
      const operation = parseGitLine(words, github);
      if ("error" in operation) return reply([err(operation.error)]);
      const caller = { isHost: who.isHost, author: () => authorOf(who.userId, who.name) };
      try {
        return reply([out(describe(operation, await vcs.run(sessionId, caller, operation)))]);
      } catch (error) {
        // An ended session refuses the command itself, as it refuses every change.
        if (!(error instanceof DomainError) || error.code === "session_ended") throw error;
        return reply([
          err(error.code === "git_failed" ? GIT_MESSAGES.operationFailed(error.message) : error.message),
        ]);
      }
    },
  };
}
