import type { ReplayFile } from "@ensemble/protocol";
import { typistColor } from "../collab/presence";
import { segmentsOf } from "./playback";

/** One file at the replay's moment, read-only, each author's text underlined in their colour. */
export function ReplayCode({ file, authors }: { file: ReplayFile; authors: readonly (string | null)[] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable text must be reachable by keyboard
    <pre className="replay-code" data-testid="replay-code" tabIndex={0}>
      {segmentsOf(file.content, file.runs, authors).map((segment, i) =>
        segment.author === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positions in one text
          <span key={i}>{segment.text}</span>
        ) : (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positions in one text
            key={i}
            className="replay-typed"
            style={{ textDecorationColor: typistColor(segment.author) }}
          >
            {segment.text}
          </span>
        ),
      )}
    </pre>
  );
}
