import { randomBytes } from "node:crypto";
import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A user no other test or earlier run has, so tests never collide on a shared server. */
export function newUser(label = "user"): TestUser {
  const name = `${label}_${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  return { name, email: `${name}@example.test`, password: `pw-${randomBytes(4).toString("hex")}` };
}

const LOOPBACK = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

declare global {
  interface Window {
    /** Installed by guardContext (Playwright's binding), never by the app. */
    reportCspViolation?: (text: string) => void;
  }
}

/**
 * Blocks and records every request that leaves loopback, and records page errors and
 * Content-Security-Policy violations (the browser's event, and its console report, which
 * also covers what the event does not reach), so a test fails when the app reaches for a
 * CDN, throws, or does something our CSP refuses.
 */
export async function guardContext(context: BrowserContext) {
  const external: string[] = [];
  const errors: string[] = [];
  const cspViolations: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (LOOPBACK.test(url) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    external.push(url);
    return route.abort();
  });
  await context.exposeBinding("reportCspViolation", (_source, text: string) => {
    cspViolations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      window.reportCspViolation?.(`${event.effectiveDirective} refused ${event.blockedURI || "inline"}`),
    );
  });
  context.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) cspViolations.push(message.text());
  });
  context.on("page", (page) => page.on("pageerror", (error) => errors.push(error.message)));
  return { external, errors, cspViolations };
}

/** Fails the test on anything guardContext recorded. */
function expectClean(guard: Awaited<ReturnType<typeof guardContext>>) {
  expect(guard.external, "requests left loopback").toEqual([]);
  expect(guard.errors, "page errors").toEqual([]);
  expect(guard.cspViolations, "Content-Security-Policy violations").toEqual([]);
}

type Guard = Awaited<ReturnType<typeof guardContext>>;

/** `test` whose default page is guarded, plus `newPage()` for further users in their own contexts. */
export const test = base.extend<{ guard: Guard; newPage: () => Promise<Page> }>({
  guard: async ({ context }, use) => {
    const guard = await guardContext(context);
    await use(guard);
    expectClean(guard);
  },
  page: async ({ page, guard }, use) => {
    void guard;
    await use(page);
  },
  newPage: async ({ browser }, use) => {
    const contexts: { context: BrowserContext; guard: Guard }[] = [];
    await use(async () => {
      const { context, guard } = await openGuardedContext(browser);
      contexts.push({ context, guard });
      return context.newPage();
    });
    for (const { context, guard } of contexts) {
      await context.close();
      expectClean(guard);
    }
  },
});

async function openGuardedContext(browser: Browser) {
  const context = await browser.newContext();
  return { context, guard: await guardContext(context) };
}

export { expect };
