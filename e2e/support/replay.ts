import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";

/** The editor's replay panel and its top-bar toggle, as a user reaches them. */
export class Replay {
  constructor(readonly page: Page) {}

  get toggle() {
    return this.page.getByTestId("replay-toggle");
  }

  get panel() {
    return this.page.getByTestId("replay-panel");
  }

  get slider() {
    return this.page.getByRole("slider", { name: "Moment of the session" });
  }

  get code() {
    return this.page.getByTestId("replay-code");
  }

  get play() {
    return this.page.getByTestId("replay-play");
  }

  /** Opens the panel and waits for the timeline (the slider appears at the session's last edit). */
  async open() {
    await this.toggle.click();
    await expect(this.slider).toBeVisible();
  }

  async close() {
    await this.page.getByRole("button", { name: "Close replay" }).click();
    await expect(this.panel).toHaveCount(0);
  }

  /** The slider's moment (ms since the epoch). */
  async moment(): Promise<number> {
    return Number(await this.slider.inputValue());
  }

  /** Moves the slider to a moment, as dragging it there would. */
  async scrubTo(at: number) {
    await this.slider.fill(String(at));
    await expect(this.slider).toHaveValue(String(at));
  }

  /**
   * Records every label the play button shows from now on, and answers a reader of them: a
   * play at the fastest speed may be over between two looks at the button.
   */
  async recordPlayLabels(): Promise<() => Promise<string[]>> {
    await this.play.evaluate((button) => {
      const labels: string[] = [];
      (window as unknown as { playLabels: string[] }).playLabels = labels;
      new MutationObserver(() => labels.push(button.textContent ?? "")).observe(button, {
        characterData: true,
        childList: true,
        subtree: true,
      });
    });
    return () => this.page.evaluate(() => (window as unknown as { playLabels: string[] }).playLabels);
  }

  /** The shown file's text as the panel renders it. */
  text(): Promise<string> {
    return this.code.evaluate((node) => node.textContent ?? "");
  }
}
