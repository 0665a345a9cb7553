/** Terminal panel heights in px (spec §9; the issue settles the clamp at 100 to 400). */
export const TERMINAL_HEIGHT = { default: 200, min: 100, max: 400, keyStep: 20, pageStep: 100 } as const;

/** A height the panel may take: rounded, and clamped to 100–400 px. */
export function clampHeight(height: number): number {
  if (!Number.isFinite(height)) return TERMINAL_HEIGHT.default;
  return Math.round(Math.min(TERMINAL_HEIGHT.max, Math.max(TERMINAL_HEIGHT.min, height)));
}

/**
 * The height after a key on the resize handle (the handle sits above the panel, so Up
 * grows it), or null for a key the handle ignores.
 */
export function heightForKey(height: number, key: string): number | null {
  switch (key) {
    case "ArrowUp":
      return clampHeight(height + TERMINAL_HEIGHT.keyStep);
    case "ArrowDown":
      return clampHeight(height - TERMINAL_HEIGHT.keyStep);
    case "PageUp":
      return clampHeight(height + TERMINAL_HEIGHT.pageStep);
    case "PageDown":
      return clampHeight(height - TERMINAL_HEIGHT.pageStep);
    case "Home":
      return TERMINAL_HEIGHT.min;
    case "End":
      return TERMINAL_HEIGHT.max;
    default:
      return null;
  }
}
