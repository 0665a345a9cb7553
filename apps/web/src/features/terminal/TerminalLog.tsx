import { useRef } from "react";
import { useAutoScroll } from "./useAutoScroll";
import { useTypewriter } from "./useTypewriter";

export const TERMINAL_EMPTY_TEXT = "Terminal ready. Run code to see output.";

/** The shared terminal's entries, typed out as they arrive; plain text only. */
export function TerminalLog() {
  const { lines, isTyping } = useTypewriter();
  const ref = useRef<HTMLDivElement>(null);
  const handleScroll = useAutoScroll(ref, lines);
  return (
    <div
      ref={ref}
      className="terminal-log"
      role="log"
      aria-live="polite"
      aria-label="Terminal output"
      // Announced once typed out, not a character at a time.
      aria-busy={isTyping}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard
      tabIndex={0}
      onScroll={handleScroll}
      data-testid="terminal-output"
    >
      {lines.length === 0 ? (
        <p className="terminal-empty">{TERMINAL_EMPTY_TEXT}</p>
      ) : (
        lines.map((line) => (
          <pre
            key={line.id}
            className={`terminal-line is-${line.type}${line.isTyping ? " is-typing" : ""}`}
            data-type={line.type}
          >
            {line.text}
          </pre>
        ))
      )}
    </div>
  );
}
