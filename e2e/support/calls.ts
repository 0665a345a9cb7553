import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";

/** One link's receive-side figures, as the page's test hook reads them from `getStats()`. */
export interface LinkStats {
  peerId: string;
  connectionState: string;
  audio: { bytesReceived: number; packetsReceived: number };
  video: { bytesReceived: number; framesDecoded: number; frameWidth: number };
  sentVideo: { label: string | null; width: number | null };
}

/** The call panel of one person's editor, and what their browser receives. */
export class CallScreen {
  constructor(readonly page: Page) {}

  get panel() {
    return this.page.getByRole("complementary", { name: "Live Session" });
  }

  async openPanel() {
    const show = this.page.getByRole("button", { name: "Show call panel" });
    const hide = this.page.getByRole("button", { name: "Hide call panel" });
    await expect(show.or(hide)).toBeVisible();
    if (await show.isVisible()) await show.click();
    await expect(this.panel).toBeVisible();
  }

  async join() {
    await this.openPanel();
    await this.panel.getByRole("button", { name: "Join call" }).click();
  }

  stats(): Promise<LinkStats[]> {
    return this.page.evaluate(async () => (window.__ensemble ? window.__ensemble.callStats() : []));
  }

  peerId(): Promise<string | null> {
    return this.page.evaluate(() => window.__ensemble?.callPeerId ?? null);
  }

  /** Waits until this browser has `count` connected links. */
  async connectedTo(count: number, timeout = 20_000) {
    await expect
      .poll(async () => (await this.stats()).filter((s) => s.connectionState === "connected").length, {
        timeout,
      })
      .toBe(count);
  }

  /**
   * Waits until media from every linked peer (or from `peerId` only) is flowing: audio packets
   * and decoded video frames both grow between two samples.
   */
  async receivesFromAll(
    options: { audio?: boolean; video?: boolean; peerId?: string } = {},
    timeout = 15_000,
  ) {
    const { audio = true, video = true } = options;
    await expect
      .poll(
        async () => {
          const before = await this.stats();
          await this.page.waitForTimeout(700);
          const after = await this.stats();
          const links = after.filter((s) => !options.peerId || s.peerId === options.peerId);
          if (links.length === 0) return false;
          return links.every((link) => {
            const earlier = before.find((s) => s.peerId === link.peerId);
            if (!earlier || link.connectionState !== "connected") return false;
            const audioGrows = link.audio.packetsReceived > earlier.audio.packetsReceived;
            const videoGrows = link.video.framesDecoded > earlier.video.framesDecoded;
            return (!audio || audioGrows) && (!video || videoGrows);
          });
        },
        { timeout, intervals: [100] },
      )
      .toBe(true);
  }

  /** Audio bytes received from `peerId` over `ms`. */
  async audioBytesFrom(peerId: string, ms = 1500): Promise<number> {
    const before = (await this.stats()).find((s) => s.peerId === peerId)?.audio.bytesReceived ?? 0;
    await this.page.waitForTimeout(ms);
    const after = (await this.stats()).find((s) => s.peerId === peerId)?.audio.bytesReceived ?? 0;
    return after - before;
  }
}
