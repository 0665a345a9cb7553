import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the window matches `query` now, re-rendering when that changes. Read synchronously
 * on the first render, so a layout chosen from it never flashes the other one; false where
 * there is no window (the prerender).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
