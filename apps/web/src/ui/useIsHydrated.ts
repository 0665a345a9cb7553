import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while React hydrates a page that the build prerendered (and in that prerender),
 * true in every other render. What the prerender cannot know (who is signed in,
 * this year) or must not hold (a lazily loaded part, which hydration would report as a server
 * error) renders once this is true, so hydration always matches the markup.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
