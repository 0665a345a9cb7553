import { useEffect, useState } from "react";
import { finishTyping, useTerminalStore } from "./store";
import { type TerminalLine, TYPING_MS_PER_CHAR, typedLines } from "./typing";

/** The terminal's lines, re-rendered every 25 ms while a batch is typing out. */
export function useTypewriter(): { lines: TerminalLine[]; isTyping: boolean } {
  const entries = useTerminalStore((s) => s.entries);
  const batch = useTerminalStore((s) => s.typing);
  const [now, setNow] = useState(() => performance.now());

  useEffect(() => {
    if (!batch) return;
    setNow(performance.now());
    const timer = setInterval(() => setNow(performance.now()), TYPING_MS_PER_CHAR);
    return () => clearInterval(timer);
  }, [batch]);

  const { lines, isDone } = typedLines(entries, batch, batch ? now - batch.startedAt : 0);
  useEffect(() => {
    if (batch && isDone) finishTyping(batch);
  }, [batch, isDone]);
  return { lines, isTyping: !isDone };
}
