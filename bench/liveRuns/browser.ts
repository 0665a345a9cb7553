import type { Browser, Page } from "playwright-core";

declare global {
  interface Window {
    /** Arrival times (epoch ms, µs precision) by write, keyed `tag:index`, filled by the observer below. */
    __liveArrivals?: Record<string, number>;
  }
}

// tsx compiles with esbuild's keepNames: functions sent to the page call `__name(…)`.
const KEEP_NAMES_SHIM = "globalThis.__name = (fn) => fn;";

/**
 * A guest's editor in Chromium, with reduced motion (output shows whole, not typed out), whose
 * terminal log is watched: each `w<tag> <i> <time>` line is stamped when the DOM first holds it
 * whole (a MutationObserver callback, before the frame is painted).
 */
export async function openWatcher(browser: Browser, baseURL: string, sessionId: string) {
  const context = await browser.newContext({ baseURL, reducedMotion: "reduce" });
  await context.addInitScript({ content: KEEP_NAMES_SHIM });
  const page: Page = await context.newPage();
  await page.goto(`/code-editor-dashboard/${sessionId}`);
  await page.waitForFunction(
    () => window.__ensemble?.ready === true && window.__ensemble.connected && window.__ensemble.synced,
    null,
    { timeout: 30_000 },
  );
  await page.getByTestId("terminal-output").waitFor();
  await page.evaluate(() => {
    const arrivals: Record<string, number> = {};
    window.__liveArrivals = arrivals;
    const log = document.querySelector('[data-testid="terminal-output"]');
    if (!log) throw new Error("no terminal log");
    new MutationObserver(() => {
      const at = performance.timeOrigin + performance.now();
      for (const match of (log.textContent ?? "").matchAll(/w(\d+) (\d+) [\d.]+\n/g)) {
        const key = `${match[1]}:${match[2]}`;
        if (arrivals[key] === undefined) arrivals[key] = at;
      }
    }).observe(log, { childList: true, subtree: true, characterData: true });
  });
  return {
    /** Arrival time of each write of `tag` the page saw, by index. */
    arrivals: (tag: number) =>
      page.evaluate((wanted) => {
        const all = window.__liveArrivals ?? {};
        return Object.entries(all)
          .filter(([key]) => key.startsWith(`${wanted}:`))
          .map(([key, at]) => [Number(key.split(":")[1]), at] as const);
      }, tag),
    close: () => context.close(),
  };
}
