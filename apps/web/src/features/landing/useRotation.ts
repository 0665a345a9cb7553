import { useCallback, useEffect, useState } from "react";

/**
 * An index that advances every `intervalMs` over `count` items. The timer restarts on every
 * change, so an item picked by hand also stays on screen for a full interval.
 */
export function useRotation(count: number, intervalMs: number) {
  const [index, setIndex] = useState(0);

  useEffect(() => {
    if (count < 2) return;
    const timer = window.setTimeout(() => setIndex((index + 1) % count), intervalMs);
    return () => window.clearTimeout(timer);
  }, [index, count, intervalMs]);

  const select = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);

  return { index, select };
}
