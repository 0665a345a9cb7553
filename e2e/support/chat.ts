import type { Page } from "@playwright/test";

/** The editor's chat panel and its top-bar toggle, as a user reaches them. */
export class Chat {
  constructor(readonly page: Page) {}

  get toggle() {
    return this.page.getByTestId("chat-toggle");
  }

  get unread() {
    return this.page.getByTestId("chat-unread");
  }

  get panel() {
    return this.page.getByTestId("chat-panel");
  }

  get log() {
    return this.page.getByRole("log", { name: "Chat messages" });
  }

  get input() {
    return this.page.getByRole("textbox", { name: "Message" });
  }

  get error() {
    return this.page.getByTestId("chat-error");
  }

  /** The text of each message shown, oldest first. */
  texts() {
    return this.log.getByTestId("chat-text");
  }

  messages() {
    return this.log.getByTestId("chat-message");
  }

  async open() {
    await this.toggle.click();
    await this.panel.waitFor({ state: "visible" });
  }

  /** Types `lines` (Shift+Enter between them) and sends with Enter. */
  async send(...lines: string[]) {
    await this.input.click();
    for (const [i, line] of lines.entries()) {
      if (i > 0) await this.input.press("Shift+Enter");
      await this.input.pressSequentially(line);
    }
    await this.input.press("Enter");
  }
}
