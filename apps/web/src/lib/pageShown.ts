/**
 * Resolves once the page has loaded what it shows (the load event: styles, fonts, images)
 * and painted it; at once in a tab that is hidden, since a hidden tab paints nothing.
 */
export function pageShown(): Promise<void> {
  return new Promise((resolve) => {
    const afterPaint = () => {
      if (document.visibilityState === "hidden") setTimeout(resolve);
      // The frame after load is painted before a task queued from its animation callback runs.
      else requestAnimationFrame(() => setTimeout(resolve));
    };
    if (document.readyState === "complete") afterPaint();
    else window.addEventListener("load", afterPaint, { once: true });
  });
}
