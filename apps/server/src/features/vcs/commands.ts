import type { TerminalEntry } from "@ensemble/protocol";
import type { CommandDefinition } from "../terminal/index";
import { type Author, VcsError, type VcsService } from "./service";

/** Splits a typed line into words, keeping "quoted" and 'quoted' text together. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

const out = (content: string): TerminalEntry => ({ type: "output", content });
const err = (content: string): TerminalEntry => ({ type: "error", content });

/**
 * The terminal's `git` command: status, add, commit, branch, log and diff on the session's
 * repository, for the host only. Operations that rewrite the working tree (checkout, merge,
 * pull) and GitHub (push, auth) are not built yet and answer as unsupported.
 */
export function gitCommand(
  vcs: VcsService,
  authorOf: (userId: string | undefined, name: string) => Promise<Author>,
): CommandDefinition {
  return {
    name: "git",
    summary:
      'version control (host only): git status | add [paths] | commit -m "msg" | branch [name] | switch <branch> | log | diff',
    async execute({ sessionId, who, line, reply }) {
      const [, op = "", ...rest] = splitWords(line);
      const caller = { isHost: who.isHost };
      try {
        switch (op) {
          case "status": {
            const { branch, entries } = await vcs.status(sessionId, caller);
            const lines = entries.map(
              (e) => `  ${e.staged ? "staged   " : "unstaged "} ${e.status.padEnd(9)} ${e.path}`,
            );
            return reply([
              out(
                [
                  `On branch ${branch}`,
                  ...(lines.length ? lines : ["nothing to commit, working tree clean"]),
                ].join("\n"),
              ),
            ]);
          }
          case "add": {
            const paths = rest.filter((p) => p !== "." && p !== "-A" && p !== "--all");
            await vcs.add(sessionId, caller, paths);
            return reply([out(paths.length ? `Staged ${paths.join(", ")}` : "Staged all changes")]);
          }
          case "commit": {
            const at = rest.indexOf("-m");
            const message = at === -1 ? "" : (rest[at + 1] ?? "");
            const summary = await vcs.commit(
              sessionId,
              caller,
              message,
              await authorOf(who.userId, who.name),
            );
            return reply([out(`Committed ${summary}`)]);
          }
          case "branch": {
            const branches = await vcs.branch(sessionId, caller, rest[0]);
            return reply([out(branches.join("\n"))]);
          }
          case "checkout":
          case "switch": {
            const branch = rest.filter((w) => w !== "--")[0];
            if (!branch) return reply([err(`'git ${op}' requires a branch name`)]);
            const applied = await vcs.switchBranch(sessionId, caller, branch);
            const notes = [
              ...applied.merged.map(
                (p) => `${p} was being edited: the branch's changes were merged into it.`,
              ),
              ...applied.kept.map((p) => `${p} was being edited: the edit is kept as it is (see git diff).`),
              ...applied.refused.map((r) => `${r.path} could not be created: ${r.message}`),
            ];
            return reply([out([`Switched to branch '${branch}'`, ...notes].join("\n"))]);
          }
          case "log":
            return reply([out(await vcs.log(sessionId, caller))]);
          case "diff": {
            const diff = await vcs.diff(sessionId, caller);
            return reply([out(diff.trim() === "" ? "No changes." : diff)]);
          }
          default:
            return reply([err(`Unsupported git operation: ${op}`.trim())]);
        }
      } catch (error) {
        if (!(error instanceof VcsError)) throw error;
        return reply([err(error.code === "failed" ? `Operation failed: ${error.message}` : error.message)]);
      }
    },
  };
}
