import { useCallback, useEffect, useRef, useState } from "react";
import type { PullsChannel } from "../pulls/channel";
import { usePullActions } from "../pulls/usePullActions";

/** The end dialog's toasts sit at the bottom and last 3 s (spec §2, §9). */
export const END_TOAST = { position: "bottom-center", autoClose: 3000 } as const;

/** After a pull request the dialog stays this long, then the person leaves (spec §9). */
export const CLOSE_AFTER_PR_MS = 3000;

/**
 * The spec's title for a PR made from the end dialog, `Session {sessionId} - {date-time}`,
 * the date-time in `locale` (the browser's when not given).
 */
export function defaultPrTitle(sessionId: string, at: Date, locale?: string): string {
  return `Session ${sessionId} - ${at.toLocaleString(locale)}`;
}

/** Where the dialog is: nothing sent, a PR on the wire, or a PR made and the exit counting down. */
export type EndPhase = "idle" | "creating" | "created";

/** What the SESSION ENDING dialog shows for a phase and a GitHub connection. */
export interface EndDialogView {
  githubStatus: "Authenticated" | "Not Authenticated";
  createLabel: "Create Pull Request" | "Creating PR...";
  /** Create Pull Request is offered connected or not: the PR is a branch on our server. */
  canCreate: boolean;
  canEndWithoutPr: boolean;
}

export function describeEndDialog(isAuthenticated: boolean, phase: EndPhase): EndDialogView {
  return {
    githubStatus: isAuthenticated ? "Authenticated" : "Not Authenticated",
    createLabel: phase === "creating" ? "Creating PR..." : "Create Pull Request",
    canCreate: phase === "idle",
    canEndWithoutPr: phase === "idle",
  };
}

/**
 * The dialog's Create Pull Request: proposes the workspace under the default title through
 * the pulls actions; once the server made it, `onLeave` runs 3 s later. A refusal leaves
 * the dialog as it was.
 */
export function useEndWithPr(pulls: PullsChannel | null, sessionId: string, onLeave: () => void) {
  const actions = usePullActions(pulls);
  const [phase, setPhase] = useState<EndPhase>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onLeaveRef = useRef(onLeave);
  onLeaveRef.current = onLeave;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const create = useCallback(async () => {
    setPhase("creating");
    const isMade = await actions.propose(
      { title: defaultPrTitle(sessionId, new Date()) },
      END_TOAST.position,
    );
    setPhase(isMade ? "created" : "idle");
    if (isMade) timer.current = setTimeout(() => onLeaveRef.current(), CLOSE_AFTER_PR_MS);
  }, [actions, sessionId]);

  return { phase, create };
}
