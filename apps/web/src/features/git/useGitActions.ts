import { BranchNameSchema, GIT_MESSAGES, type GitOperation } from "@ensemble/protocol";
import { useMemo } from "react";
import type { GitChannel } from "./channel";
import { checkFields, type GithubFields } from "./credentials";
import { showFailure, showSuccess } from "./feedback";
import type { GitResult } from "./runner";
import { disconnect, useGitStore } from "./store";

/** How an operation's success is told: the server's line, our own words, or nothing. */
type Success = "server" | "silent" | string;

/**
 * The Git panel's actions for the host: each checks what it can here (spec §5), runs on
 * the session's git channel and toasts the outcome for 3 s. Each resolves true when the
 * operation succeeded.
 */
export function useGitActions(git: GitChannel | null) {
  return useMemo(() => {
    const run = async (operation: GitOperation, success: Success = "server"): Promise<boolean> => {
      if (!git) return false;
      const result: GitResult = await git.run(operation);
      if (!result.ok) {
        showFailure(result.error);
        return false;
      }
      if (success === "server") showSuccess(result.data.message);
      else if (success !== "silent") showSuccess(success);
      return true;
    };

    /** Push and pull need the GitHub connection (spec §5). */
    const withGithub = (op: "push" | "pull") => {
      const { target } = useGitStore.getState();
      if (!target) {
        showFailure({ code: "github_auth", message: GIT_MESSAGES.authRequired });
        return Promise.resolve(false);
      }
      return run({ op, github: target });
    };

    const checkBranch = (name: string): string | null => {
      const parsed = BranchNameSchema.safeParse(name);
      if (parsed.success) return parsed.data;
      showFailure({ code: "invalid_payload", message: parsed.error.issues[0]?.message ?? "" });
      return null;
    };

    return {
      /** Checks the dialog's fields, then has the server check them with GitHub. */
      async connect(fields: GithubFields): Promise<boolean> {
        const checked = checkFields(fields);
        if (!checked.ok) {
          showFailure({ code: "invalid_payload", message: checked.message });
          return false;
        }
        return run({ op: "connect", github: checked.target }, GIT_MESSAGES.authSucceeded);
      },
      disconnect,
      stage: (paths: string[]) => run({ op: "add", paths }, "silent"),
      unstage: (paths: string[]) => run({ op: "unstage", paths }, "silent"),
      /**
       * Commits with `message`; an empty one asks for it, offering the default (spec §5).
       * Cancelling the prompt commits nothing.
       */
      commit(message: string): Promise<boolean> {
        let text = message.trim();
        if (text === "") {
          const answer = window.prompt("Commit message", GIT_MESSAGES.defaultCommitMessage);
          if (answer === null) return Promise.resolve(false);
          text = answer.trim() || GIT_MESSAGES.defaultCommitMessage;
        }
        return run({ op: "commit", message: text });
      },
      createBranch(name: string): Promise<boolean> {
        const branch = checkBranch(name);
        return branch === null ? Promise.resolve(false) : run({ op: "branch", name: branch });
      },
      switchBranch: (branch: string) => run({ op: "switch", branch }),
      merge: (branch: string) => run({ op: "merge", branch }),
      push: () => withGithub("push"),
      pull: () => withGithub("pull"),
    };
  }, [git]);
}

export type GitActions = ReturnType<typeof useGitActions>;
