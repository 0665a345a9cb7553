import { type CreatePr, PR_MESSAGES, type PullRequest, type ReviewAction } from "@ensemble/protocol";
import { useMemo } from "react";
import { readStoredTarget } from "../git/credentials";
import type { PullsChannel } from "./channel";
import { showCompareLink, showFailure, showInfo, showOutcome, type ToastPlacement } from "./feedback";
import { receivePr, setCreating, setReviewing, usePullsStore } from "./store";

/** What the New PR prompts offer (spec §3: source 'feature', target 'main'). */
export const PROMPT_DEFAULTS = { source: "feature", target: "main" } as const;

/**
 * The four answers of New PR, trimmed, or null as soon as one prompt is cancelled. An empty
 * title becomes the entity's default (spec §3); 'title required' is the terminal's rule.
 */
export function askForPr(
  ask: (question: string, answer: string) => string | null,
): { title: string; description: string; source: string; target: string } | null {
  const title = ask("Pull request title", "");
  if (title === null) return null;
  const description = ask("Description (optional)", "");
  if (description === null) return null;
  const source = ask("Source branch", PROMPT_DEFAULTS.source);
  if (source === null) return null;
  const target = ask("Target branch", PROMPT_DEFAULTS.target);
  if (target === null) return null;
  return {
    title: title.trim() || PR_MESSAGES.defaultTitle,
    description: description.trim(),
    source: source.trim(),
    target: target.trim(),
  };
}

/** What New PR sends for the prompts' answers: empty answers are left to the server's defaults. */
export function newPrRequest(answers: NonNullable<ReturnType<typeof askForPr>>): Omit<CreatePr, "sessionId"> {
  return {
    title: answers.title,
    ...(answers.description ? { description: answers.description } : {}),
    ...(answers.source ? { sourceBranch: answers.source } : {}),
    ...(answers.target ? { targetBranch: answers.target } : {}),
  };
}

/**
 * Creating and reviewing pull requests: each sends one request on the session's channel,
 * puts the PR the server answered in the list and toasts the server's message. Resolves
 * true when the server did it.
 */
export function usePullActions(pulls: PullsChannel | null) {
  return useMemo(() => {
    /**
     * Proposes the workspace under the given title without asking anything (the SESSION
     * ENDING dialog); one creation on the wire at a time. Toasts the server's answer, at
     * `position` when given.
     */
    async function propose(input: Omit<CreatePr, "sessionId">, position?: ToastPlacement): Promise<boolean> {
      if (!pulls || usePullsStore.getState().isCreating) return false;
      setCreating(true);
      try {
        const result = await pulls.create(input);
        if (!result.ok) {
          showFailure(result.error.message, position);
          return false;
        }
        receivePr(result.data.pr);
        showOutcome(result.data.message, position);
        return true;
      } finally {
        setCreating(false);
      }
    }

    return {
      /**
       * New PR (spec §5): prompts title, description, source and target in turn; cancelling
       * any prompt sends nothing. The source answer names the PR's branch (the server refuses
       * one that exists); left empty, the server names it from the title.
       */
      async create(): Promise<boolean> {
        if (!pulls || usePullsStore.getState().isCreating) return false;
        const answers = askForPr((question, answer) => window.prompt(question, answer));
        if (!answers) {
          showInfo(PR_MESSAGES.creationCancelled);
          return false;
        }
        return propose(newPrRequest(answers));
      },

      propose,

      /**
       * The host's review of a pending PR; one review on the wire at a time. An approval
       * carries the host's stored GitHub connection, so the server also opens the PR there
       * (spec §4: only when connected).
       */
      async review(pr: PullRequest, action: ReviewAction, comment: string): Promise<boolean> {
        if (!pulls || usePullsStore.getState().reviewing) return false;
        const github = action === "approve" ? readStoredTarget() : null;
        setReviewing({ prId: pr.id, action, isPublishing: github !== null });
        try {
          const text = comment.trim();
          const result = await pulls.review(pr.id, action, text || undefined, github);
          if (!result.ok) {
            showFailure(result.error.message);
            return false;
          }
          const { pr: reviewed, message, compareUrl } = result.data;
          receivePr(reviewed);
          if (compareUrl) showCompareLink(message, compareUrl);
          else showOutcome(message);
          return true;
        } finally {
          setReviewing(null);
        }
      },
    };
  }, [pulls]);
}

export type PullActions = ReturnType<typeof usePullActions>;
