import type { Page } from "playwright-core";
import type { HostedSession } from "../calls/server";

/**
 * Puts the host's token and user in the origin's storage, written on `/api/health` so that no
 * page of the app (and nothing in the HTTP cache) is loaded before the measured one.
 */
export async function storeHost(page: Page, origin: string, host: HostedSession): Promise<void> {
  await page.goto(`${origin}/api/health`);
  await page.evaluate(
    ([token, user]) => {
      localStorage.setItem("token", token);
      localStorage.setItem("user", user);
    },
    [host.token, JSON.stringify(host.user)] as const,
  );
}
