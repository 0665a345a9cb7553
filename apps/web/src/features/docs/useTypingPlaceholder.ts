import { useEffect, useState } from "react";

const PHRASES = ["How to use sessions", "How to use the APIs", "How to use integrations", "How to use calls"];
const TYPE_MS = 70;
const HOLD_MS = 1600;

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches
  );
}

/** A placeholder that types 'How to use …' phrases one after another; static under reduced motion. */
export function useTypingPlaceholder(): string {
  const [text, setText] = useState(PHRASES[0] ?? "");

  useEffect(() => {
    if (prefersReducedMotion()) return;
    let phrase = 0;
    let length = 0;
    let timer = 0;
    function tick() {
      const full = PHRASES[phrase] ?? "";
      length += 1;
      setText(full.slice(0, length));
      if (length >= full.length) {
        phrase = (phrase + 1) % PHRASES.length;
        length = 0;
        timer = window.setTimeout(tick, HOLD_MS);
      } else {
        timer = window.setTimeout(tick, TYPE_MS);
      }
    }
    timer = window.setTimeout(tick, HOLD_MS);
    return () => window.clearTimeout(timer);
  }, []);

  return `${text}…`;
}
