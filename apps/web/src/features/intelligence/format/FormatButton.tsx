import { formatterFor } from "../formatters";
import { useFormatStore } from "./store";

interface FormatButtonProps {
  /** The editor language of the shown file, or null when none is open. */
  language: string | null;
}

/** Format Document as a top-bar button; disabled for a file no formatter knows. */
export function FormatButton({ language }: FormatButtonProps) {
  const run = useFormatStore((s) => s.run);
  const isFormatting = useFormatStore((s) => s.isFormatting);
  const hasFormatter = language !== null && formatterFor(language) !== undefined;
  const title =
    language === null
      ? "Open a file to format it"
      : hasFormatter
        ? "Format document (Shift+Alt+F)"
        : `There is no formatter for ${language} files`;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Format document"
      title={title}
      aria-busy={isFormatting}
      disabled={!run || !hasFormatter || isFormatting}
      onClick={() => run?.()}
    >
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M4 6h16M8 10h12M8 14h12M4 18h16"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      </svg>
    </button>
  );
}
