import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { createHostedSession, EditorScreen, type Host, signInContext } from "./editor";

export { newUser, type TestUser } from "./users";

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

/** A signed-in host and a guest in the host's new session, each in their own context, both editors live. */
export interface TwoEditors<T = undefined> {
  /** The host's account and session. */
  account: Host;
  /** The host's editor, on the test's default page. */
  host: EditorScreen;
  /** An anonymous guest's editor, in a guarded context of its own. */
  guest: EditorScreen;
  /** What `prepare` returned. */
  prepared: T;
}

/**
 * Opens the pair: `label` names the host's account; `prepare` runs once the session exists
 * and the host's context is signed in, before either page opens it (a repository to create,
 * storage to seed); `together` opens both at once instead of host first.
 */
export type OpenTwoEditors = <T = undefined>(
  label?: string,
  options?: { prepare?: (account: Host) => Promise<T>; together?: boolean },
) => Promise<TwoEditors<T>>;

/**
 * `test` whose default page is guarded, plus `newPage()` for further users in their own
 * contexts and `twoEditors()` for the usual host and guest in one session.
 */
export const test = base.extend<{ guard: Guard; newPage: () => Promise<Page>; twoEditors: OpenTwoEditors }>({
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
  twoEditors: async ({ page, newPage, request }, use) => {
    const open: OpenTwoEditors = async <T>(
      label = "host",
      { prepare, together = false }: { prepare?: (account: Host) => Promise<T>; together?: boolean } = {},
    ) => {
      const account = await createHostedSession(request, label);
      await signInContext(page.context(), account);
      const prepared = (await prepare?.(account)) as T;
      const host = new EditorScreen(page);
      const guest = new EditorScreen(await newPage());
      if (together) await Promise.all([host.open(account.sessionId), guest.open(account.sessionId)]);
      else {
        await host.open(account.sessionId);
        await guest.open(account.sessionId);
      }
      return { account, host, guest, prepared };
    };
    await use(open);
  },
});

async function openGuardedContext(browser: Browser) {
  const context = await browser.newContext();
  return { context, guard: await guardContext(context) };
}

export { expect };
