import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { EditorScreen } from "./editor";
import type { OpenTwoEditors } from "./fixtures";

export const TERMINAL_EMPTY = "Terminal ready. Run code to see output.";

/** The shared terminal panel and Run Code button of one editor screen. */
export class Terminal {
  constructor(readonly page: Page) {}

  get panel() {
    return this.page.getByTestId("terminal");
  }

  /** The output region (role log). */
  get log() {
    return this.page.getByRole("log", { name: "Terminal output" });
  }

  get runButton() {
    return this.page.getByTestId("run-code");
  }

  get input() {
    return this.page.getByLabel("Terminal command");
  }

  get resizeHandle() {
    return this.page.getByRole("separator", { name: "Resize terminal" });
  }

  /**
   * The log's entries of one type, by the text a screen reader gets: a typed line is a
   * `<pre>`; program output (consecutive entries of one type) is a block xterm.js draws, read
   * through its accessibility tree (screen-reader mode; its drawn rows are aria-hidden), or,
   * for blocks older than the newest few (and while xterm loads), a `<pre>` of its text.
   */
  entries(type: "input" | "output" | "error") {
    return this.log.locator(
      [
        `pre[data-type="${type}"]`,
        `[data-type="${type}"] > pre`,
        `[data-type="${type}"] .xterm-accessibility-tree`,
      ].join(", "),
    );
  }

  /**
   * The last row of the last output block of `type`: where the server's closing line of a run
   * ("Stopped by Ann.") shows, after the program's own stderr in the same block.
   */
  lastLine(type: "output" | "error") {
    return this.entries(type).last().getByRole("listitem").last();
  }

  /** The drawn (visual) row of an output block that contains `text`. */
  drawnRow(text: string) {
    return this.log.locator(".xterm-rows > div", { hasText: text });
  }

  /** Clicks (`count` times) the middle of `text` where an output block draws it (a link, a word). */
  async clickDrawn(text: string, count = 1) {
    const at = await this.drawnRow(text)
      .first()
      .evaluate((row, wanted) => {
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
        const start = nodes
          .map((n) => n.data)
          .join("")
          .indexOf(wanted);
        if (start === -1) return null;
        // The character in the middle of `wanted`, in whichever text node holds it.
        let offset = start + Math.floor(wanted.length / 2);
        for (const node of nodes) {
          if (offset < node.data.length) {
            const range = document.createRange();
            range.setStart(node, offset);
            range.setEnd(node, offset + 1);
            const rect = range.getBoundingClientRect();
            return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
          }
          offset -= node.data.length;
        }
        return null;
      }, text);
    if (!at) throw new Error(`"${text}" is not drawn`);
    await this.page.mouse.move(at.x, at.y);
    await this.page.mouse.click(at.x, at.y, { clickCount: count });
  }

  /** The find box (Ctrl+F in the panel). */
  get findBox() {
    return this.page.getByRole("searchbox", { name: "Find in terminal output" });
  }

  /** Types a line into the terminal's command line and sends it. */
  async command(line: string) {
    await this.input.fill(line);
    await this.input.press("Enter");
    await expect(this.input).toHaveValue("");
  }

  /** The host commits the workspace as it is (the starting point PRs are compared with). */
  async commitAll(message = "Start") {
    await this.command("git add .");
    await this.command(`git commit -m "${message}"`);
    await expect(this.entries("output").last()).toContainText("Committed");
  }
}

/**
 * A signed-in host (Ann) and a guest (Ben) on the host's new session's editor, both live,
 * with their terminals.
 */
export async function twoAtTerminals(twoEditors: OpenTwoEditors, label: string) {
  const { account: host, host: ann, guest: ben } = await twoEditors(label);
  return { host, ann, ben, annTerm: new Terminal(ann.page), benTerm: new Terminal(ben.page) };
}

/**
 * A signed-in host and a guest in the host's new session, both editors live, and the host's
 * terminal after committing the starting point.
 */
export async function hostAndGuest(twoEditors: OpenTwoEditors, label: string) {
  const {
    host: account,
    ann: host,
    ben: guest,
    annTerm: hostTerminal,
  } = await twoAtTerminals(twoEditors, label);
  await hostTerminal.commitAll();
  return { account, host, guest, hostTerminal };
}

/**
 * Replaces the shown file's text (`path`, the main file by default) through the editor (one input event, so Monaco's
 * auto-closing adds nothing) and waits until every screen has it, so the server does too.
 */
export async function setCode(author: EditorScreen, code: string, others: EditorScreen[], path?: string) {
  await author.page.locator(".monaco-editor .view-lines").click();
  await author.page.keyboard.press("Control+a");
  await author.page.keyboard.insertText(code);
  for (const screen of [author, ...others]) await expect.poll(() => screen.text(path)).toBe(code);
}
