import type { PrFileDiff } from "@ensemble/protocol";
import { useEffect, useState } from "react";
import type { PullsChannel } from "./channel";

/** A PR's diff as the panel shows it: on its way, refused, or the changed files. */
export type DiffState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; files: PrFileDiff[] };

/** Fetches a PR's diff from the server when the PR is shown, and again on retry. */
export function usePrDiff(pulls: PullsChannel | null, prId: string): DiffState & { retry: () => void } {
  const [state, setState] = useState<DiffState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt fetches again
  useEffect(() => {
    if (!pulls) return;
    let isCurrent = true;
    setState({ status: "loading" });
    void pulls.diff(prId).then((result) => {
      if (!isCurrent) return;
      setState(
        result.ok
          ? { status: "ready", files: result.data.files }
          : { status: "failed", message: result.error.message },
      );
    });
    return () => {
      isCurrent = false;
    };
  }, [pulls, prId, attempt]);

  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
