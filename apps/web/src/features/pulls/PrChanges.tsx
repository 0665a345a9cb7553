import { lazy, Suspense } from "react";
import { EditorErrorBoundary } from "../../ui/EditorErrorBoundary";
import type { PullsChannel } from "./channel";
import { usePrDiff } from "./usePrDiff";

// Monaco's diff editor comes with the editor's chunk, loaded when a diff is first shown.
const PrDiffView = lazy(() => import("./PrDiffView"));

/** A PR's changed files, each side by side; loading and failure said in words. */
export function PrChanges({ pulls, prId }: { pulls: PullsChannel | null; prId: string }) {
  const diff = usePrDiff(pulls, prId);
  if (diff.status === "loading")
    return (
      <p className="pr-note" role="status">
        Loading the changes…
      </p>
    );
  if (diff.status === "failed")
    return (
      <p className="pr-note pr-note-error" role="alert">
        Could not load the changes: {diff.message}{" "}
        <button type="button" className="pr-link-button" onClick={diff.retry}>
          Try again
        </button>
      </p>
    );
  if (diff.files.length === 0) return <p className="pr-note">No file changes.</p>;
  return (
    <EditorErrorBoundary>
      <Suspense
        fallback={
          <p className="pr-note" role="status">
            Loading the diff viewer…
          </p>
        }
      >
        <PrDiffView files={diff.files} />
      </Suspense>
    </EditorErrorBoundary>
  );
}
