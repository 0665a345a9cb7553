import { useEffect, useRef } from "react";
import { plainText } from "./entries";
import { registerSearchable } from "./search";

/** The name of the CSS highlight (styles/terminal.css) that marks a found match in plain text. */
const FOUND = "terminal-found";

/**
 * An older block of program output as plain text (its escape sequences dropped, what carriage
 * returns overwrote gone), searchable: the terminal emulator is kept for the newest blocks.
 */
export function PlainBlock({ type, text }: { type: "output" | "error"; text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  const shown = plainText(text);

  useEffect(() => {
    const pre = ref.current;
    if (!pre) return;
    let at: number | null = null;
    const clear = () => {
      at = null;
      globalThis.CSS?.highlights?.delete(FOUND);
    };
    const unregister = registerSearchable({
      element: pre,
      find(query, direction, fromEdge) {
        const node = pre.firstChild;
        if (!(node instanceof Text)) return false;
        const haystack = node.data.toLowerCase();
        const needle = query.toLowerCase();
        const from = fromEdge ? null : at;
        const next =
          direction === "next"
            ? haystack.indexOf(needle, from === null ? 0 : from + 1)
            : from === null
              ? haystack.lastIndexOf(needle)
              : from === 0
                ? -1
                : haystack.lastIndexOf(needle, from - 1);
        if (next === -1) {
          clear();
          return false;
        }
        at = next;
        const range = new Range();
        range.setStart(node, next);
        range.setEnd(node, next + needle.length);
        if (typeof Highlight === "function") globalThis.CSS?.highlights?.set(FOUND, new Highlight(range));
        revealRange(pre, range);
        return true;
      },
      clear,
    });
    return () => {
      clear();
      unregister();
    };
  }, []);

  return (
    <pre ref={ref} className={`terminal-line is-${type}`}>
      {shown}
    </pre>
  );
}

/** Scrolls the log around `element` so that `range` is in view. */
function revealRange(element: HTMLElement, range: Range): void {
  const log = element.closest(".terminal-log");
  if (!log) return;
  const box = range.getBoundingClientRect();
  const view = log.getBoundingClientRect();
  if (box.top < view.top || box.bottom > view.bottom)
    log.scrollTop += box.top - view.top - log.clientHeight / 2;
}
