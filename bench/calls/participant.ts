import type { Browser, BrowserContext, Page } from "playwright-core";
import { installMarks, type Mark } from "./marks";
import type { HostedSession } from "./server";

/** What the page's read-only hook gives of one link (apps/web features/calls/stats.ts). */
export interface LinkStats {
  peerId: string;
  connectionState: string;
  audio: { bytesReceived: number; packetsReceived: number };
  video: { bytesReceived: number; framesDecoded: number; frameWidth: number };
}

declare global {
  interface Window {
    /** The editor's hook (apps/web features/editor/testHook.ts), the part the bench reads. */
    __ensemble?: {
      readonly ready: boolean;
      readonly connected: boolean;
      readonly synced: boolean;
      readonly callStatus: string;
      /** A workspace file's text (the main file by default). */
      text(path?: string): string;
      callStats(): Promise<LinkStats[]>;
    };
  }
}

// tsx compiles this file with esbuild's keepNames, which wraps named functions in `__name(…)`;
// the functions Playwright sends to the page carry those calls, so the page needs the helper.
const KEEP_NAMES_SHIM = "globalThis.__name = (fn) => fn;";

/** One person: their own browser context (a fresh guest unless `host` is given) and editor. */
export class Participant {
  private logged: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on("console", (message) => {
      if (message.type() === "warning" || message.type() === "error")
        this.logged.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => this.logged.push(`page error: ${error.message}`));
  }

  /** Opens the session's editor, waits until it is live and opens the call panel. */
  static async open(browser: Browser, baseURL: string, sessionId: string, host?: HostedSession) {
    const context = await browser.newContext({ baseURL });
    await context.addInitScript({ content: KEEP_NAMES_SHIM });
    await context.addInitScript(installMarks);
    if (host)
      await context.addInitScript(
        ([token, user]) => {
          if (!location.protocol.startsWith("http")) return;
          localStorage.setItem("token", token);
          localStorage.setItem("user", user);
        },
        [host.token, JSON.stringify(host.user)] as const,
      );
    const page = await context.newPage();
    await page.goto(`/code-editor-dashboard/${sessionId}`);
    await page.waitForFunction(
      () => window.__ensemble?.ready === true && window.__ensemble.connected && window.__ensemble.synced,
      null,
      { timeout: 30_000 },
    );
    const show = page.getByRole("button", { name: "Show call panel" });
    const hide = page.getByRole("button", { name: "Hide call panel" });
    await show.or(hide).first().waitFor();
    if (await show.isVisible()) await show.click();
    const participant = new Participant(context, page);
    await participant.joinButton.waitFor();
    return participant;
  }

  get panel() {
    return this.page.getByRole("complementary", { name: "Live Session" });
  }

  get joinButton() {
    return this.panel.getByRole("button", { name: "Join call" });
  }

  stats(): Promise<LinkStats[]> {
    return this.page.evaluate(() => window.__ensemble?.callStats() ?? []);
  }

  /** Warnings and errors the page logged since the last call. */
  takeConsole(): string[] {
    return this.logged.splice(0, this.logged.length);
  }

  /** Time-stamps since `since` (epoch ms), and forgets them. */
  takeMarks(since: number): Promise<Mark[]> {
    return this.page.evaluate((from) => {
      const marks = window.__benchMarks ?? [];
      return marks.splice(0, marks.length).filter((m) => m.at >= from);
    }, since);
  }

  /** Clicks Join call and waits until the server has taken this tab into the call. */
  async join() {
    await this.joinButton.click();
    await this.page.waitForFunction(
      () => ["connecting", "connected"].includes(window.__ensemble?.callStatus ?? ""),
      null,
      { timeout: 30_000 },
    );
  }

  /** Waits until `count` links are connected and each has decoded a video frame. */
  async receivingFrom(count: number, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const links = await this.stats();
      const live = links.filter((l) => l.connectionState === "connected" && l.video.framesDecoded > 0);
      if (links.length === count && live.length === count) return links;
      if (Date.now() > deadline)
        throw new Error(`expected ${count} live links, have ${JSON.stringify(links.map(brief))}`);
      await this.page.waitForTimeout(100);
    }
  }

  close() {
    return this.context.close();
  }
}

const brief = (l: LinkStats) => `${l.connectionState}/${l.video.framesDecoded} frames`;
