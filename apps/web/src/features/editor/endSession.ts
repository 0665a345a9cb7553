import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "react-toastify/unstyled";
import { getProviders } from "../auth/authApi";
import { consentUrl } from "../git/credentials";
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
  /** GitHub Login is offered while not connected (spec §2), beside Create Pull Request. */
  showsLogin: boolean;
  loginLabel: "GitHub Login" | "Authenticating...";
  canLogin: boolean;
}

export function describeEndDialog(
  isAuthenticated: boolean,
  phase: EndPhase,
  isAuthenticating = false,
): EndDialogView {
  const isIdle = phase === "idle" && !isAuthenticating;
  return {
    githubStatus: isAuthenticated ? "Authenticated" : "Not Authenticated",
    createLabel: phase === "creating" ? "Creating PR..." : "Create Pull Request",
    canCreate: isIdle,
    canEndWithoutPr: isIdle,
    showsLogin: !isAuthenticated,
    loginLabel: isAuthenticating ? "Authenticating..." : "GitHub Login",
    canLogin: isIdle,
  };
}

/** What GitHub Login says when it cannot take the person to GitHub. */
export const LOGIN_TEXT = {
  hostOnly:
    "GitHub login is the host's: the host publishes your pull request to GitHub when approving it. Create Pull Request to send your changes for review.",
  noOauth:
    "This server does not offer GitHub login: connect GitHub with a personal access token in the Git panel.",
} as const;

/**
 * Where GitHub Login leads. Only the host's GitHub connection is used (the host publishes
 * PRs when approving, and the server refuses anyone else's connect), so everyone else is
 * told so; the host goes to GitHub's consent for a token that can push (the Git panel's
 * flow), or is sent to the Git panel's token when the server has no GitHub login.
 */
export function loginRoute(isHost: boolean, hasGithubLogin: boolean): "consent" | "token" | "host-only" {
  if (!isHost) return "host-only";
  return hasGithubLogin ? "consent" : "token";
}

/**
 * The dialog's GitHub Login: 'Authenticating...' from the click until the page leaves for
 * GitHub; back from GitHub, the Git panel takes the token (see credentials.ts).
 */
export function useGithubLogin(sessionId: string, isHost: boolean) {
  const [isAuthenticating, setIsAuthenticating] = useState(false);
  const login = useCallback(async () => {
    if (!isHost) {
      toast.info(LOGIN_TEXT.hostOnly, END_TOAST);
      return;
    }
    setIsAuthenticating(true);
    const providers = await getProviders().catch(() => null);
    if (loginRoute(isHost, providers?.github ?? false) === "consent") {
      window.location.assign(consentUrl(sessionId));
      return;
    }
    setIsAuthenticating(false);
    toast.info(LOGIN_TEXT.noOauth, END_TOAST);
  }, [sessionId, isHost]);
  return { isAuthenticating, login };
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
