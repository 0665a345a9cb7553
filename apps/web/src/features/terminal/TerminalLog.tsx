import { lazy, Suspense, useEffect, useMemo, useRef } from "react";
import { groupLines } from "./blocks";
import { plainText } from "./entries";
import { PlainBlock } from "./PlainBlock";
import { useAutoScroll } from "./useAutoScroll";
import { useTypewriter } from "./useTypewriter";

// xterm.js is most of the terminal's weight: its own chunk, fetched once the panel is up.
const loadOutputBlock = () => import("./OutputBlock");
const OutputBlock = lazy(loadOutputBlock);

export const TERMINAL_EMPTY_TEXT = "Terminal ready. Run code to see output.";

interface TerminalLogProps {
  /** The workspace's file paths: `path:line` references to them in output are links. */
  filePaths: readonly string[];
  /** A `path:line[:column]` link in the output was followed. */
  onOpenLocation: (path: string, line: number, column?: number) => void;
}

/**
 * The shared terminal's entries, typed out as they arrive: typed lines as text, program output
 * in blocks a terminal emulator renders (colours, carriage returns, erased lines).
 */
export function TerminalLog({ filePaths, onOpenLocation }: TerminalLogProps) {
  const { lines, isTyping } = useTypewriter();
  const items = useMemo(() => groupLines(lines), [lines]);
  const ref = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const handleScroll = useAutoScroll(ref, contentRef);
  const paths = useMemo(() => new Set(filePaths), [filePaths]);
  const pathsRef = useRef(paths);
  pathsRef.current = paths;
  const getPaths = useRef(() => pathsRef.current).current;

  useEffect(() => {
    // The first output then shows in the emulator at once, not after a plain-text flash.
    void loadOutputBlock();
  }, []);
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
      <div ref={contentRef}>
        {items.length === 0 ? (
          <p className="terminal-empty">{TERMINAL_EMPTY_TEXT}</p>
        ) : (
          items.map((item) => {
            if (item.kind === "line")
              return (
                <pre key={item.key} className="terminal-line is-input" data-type="input">
                  {item.line.text}
                </pre>
              );
            return (
              <div key={item.key} className={`terminal-block is-${item.type}`} data-type={item.type}>
                {item.isLive ? (
                  <Suspense
                    fallback={<pre className={`terminal-line is-${item.type}`}>{plainText(item.text)}</pre>}
                  >
                    <OutputBlock
                      type={item.type}
                      text={item.text}
                      paths={getPaths}
                      onOpenLocation={onOpenLocation}
                    />
                  </Suspense>
                ) : (
                  <PlainBlock type={item.type} text={item.text} />
                )}
              </div>
            );
          })
        )}
      </div>
    </div>
  );
}
