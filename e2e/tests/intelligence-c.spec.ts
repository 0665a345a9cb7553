import { existsSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode } from "../support/terminal";

// C intelligence from the session's shared clangd: diagnostics for everyone without a run,
// and completions for a guest. The server runs Debian's clangd, or where it is not installed
// the integration tests' LSP stand-in (playwright.config.ts): both report the undeclared name
// and offer the file's variables as variables.

const FILE = "src/check.c";
const CODE = "int counter_value = 1;\nint counter_total = 2;\nint main(void) { return undeclared_thing; }\n";

/** The lines of the shown file that carry an error squiggle, as the editor draws them. */
function squiggledLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('[data-testid="code-editor"]');
    if (!editor) return [];
    const numbers = Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers"));
    const lines = Array.from(editor.querySelectorAll(".squiggly-error")).map((squiggle) => {
      const middle = squiggle.getBoundingClientRect().top + squiggle.getBoundingClientRect().height / 2;
      const number = numbers.find((n) => {
        const box = n.getBoundingClientRect();
        return middle >= box.top && middle < box.bottom;
      });
      return Number(number?.textContent ?? 0);
    });
    return [...new Set(lines)].sort((a, b) => a - b);
  });
}

const showsMarksOn = (screen: EditorScreen, lines: number[]) =>
  expect.poll(() => squiggledLines(screen.page), { timeout: 20_000 }).toEqual(lines);

test.describe("C intelligence from the shared language server", () => {
  test("an error is marked in both editors without running, the guest gets clangd's completion, the host renames", async ({
    twoEditors,
  }) => {
    test.info().annotations.push({
      type: "language server",
      description: existsSync("/usr/bin/clangd") ? "clangd" : "the LSP stand-in (clangd is not installed)",
    });
    const { host, guest } = await twoEditors("clangd");
    await host.create("file", "src", "check.c");
    await expect(host.page.getByTestId("code-editor")).toHaveAttribute("data-file", FILE);
    await setCode(host, CODE, [guest], FILE);
    await guest.openFile(FILE);

    // Nobody ran anything: the marks come from the language server, for both.
    for (const screen of [host, guest]) await showsMarksOn(screen, [3]);
    await guest.page.locator(".squiggly-error").first().hover({ force: true });
    await expect(guest.page.locator(".monaco-hover").filter({ hasText: "undeclared_thing" })).toBeVisible();
    await host.page.screenshot({ path: test.info().outputPath("c-marked-host.png") });

    // The guest types a prefix: the list holds the server's items, a variable's icon, not
    // Monaco's word completion (whose items are plain text).
    await guest.caretToEndOf(3);
    await guest.page.keyboard.press("Enter");
    await guest.type("int copy = counter_");
    const widget = guest.page.locator(".suggest-widget");
    await expect(widget).toBeVisible();
    const row = widget.locator(".monaco-list-row").filter({ hasText: "counter_value" });
    await expect(row.locator(".codicon-symbol-variable")).toBeVisible({ timeout: 15_000 });
    await guest.page.screenshot({ path: test.info().outputPath("c-completion-guest.png") });

    // Fixed by the guest: the marks go for both.
    await guest.page.keyboard.press("Escape");
    const fixed = CODE.replace("undeclared_thing", "counter_total");
    await setCode(guest, fixed, [host], FILE);
    for (const screen of [host, guest]) await showsMarksOn(screen, []);

    // The host renames a variable (F2): the server's edits reach everyone's text.
    await host.caretToEndOf(2);
    await host.page.keyboard.press("Home");
    for (let i = 0; i < "int co".length; i++) await host.page.keyboard.press("ArrowRight");
    await host.page.keyboard.press("F2");
    const box = host.page.locator(".rename-box input");
    await expect(box).toBeVisible();
    await box.fill("total_count");
    await box.press("Enter");
    const renamed = fixed.replaceAll("counter_total", "total_count");
    for (const screen of [host, guest]) await expect.poll(() => screen.text(FILE)).toBe(renamed);
  });
});
