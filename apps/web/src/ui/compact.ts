import { useMediaQuery } from "./useMediaQuery";

/**
 * Below this width (tablets, phones) the editor screen is compact: its side panels become
 * drawers, the top bar folds its less used actions into a menu, and the terminal starts
 * closed. Kept equal to the `max-width: 1023px` of the stylesheets (editor.css).
 */
export const COMPACT_QUERY = "(max-width: 1023px)";

/** The window is compact now (false where there is no window). */
export function isCompactWindow(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function"
    ? window.matchMedia(COMPACT_QUERY).matches
    : false;
}

/** True while the window is narrower than the desktop editor layout (see COMPACT_QUERY). */
export function useIsCompact(): boolean {
  return useMediaQuery(COMPACT_QUERY);
}
