import { expect, type Page } from "@playwright/test";
import type { EditorScreen } from "./editor";

/** The lines of the shown file that carry an error squiggle, as the editor draws them. */
export function squiggledLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('[data-testid="code-editor"]');
    if (!editor) return [];
    const numbers = Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers"));
    const lines = Array.from(editor.querySelectorAll(".squiggly-error")).map((squiggle) => {
      const box = squiggle.getBoundingClientRect();
      const middle = box.top + box.height / 2;
      const number = numbers.find((n) => {
        const line = n.getBoundingClientRect();
        return middle >= line.top && middle < line.bottom;
      });
      return Number(number?.textContent ?? 0);
    });
    return [...new Set(lines)].sort((a, b) => a - b);
  });
}

/** Waits until the shown file's error squiggles are on exactly `lines`. */
export const expectErrorsOn = (screen: EditorScreen, lines: number[]) =>
  expect.poll(() => squiggledLines(screen.page), { timeout: 20_000 }).toEqual(lines);

/** Focuses the editor and puts the caret on `line` at `column` (both 1-based; the line is not indented). */
export async function caretAt(screen: EditorScreen, line: number, column: number) {
  const { keyboard } = screen.page;
  await screen.page.locator(".monaco-editor .view-lines").click();
  await keyboard.press("Control+Home");
  for (let i = 1; i < line; i++) await keyboard.press("ArrowDown");
  await keyboard.press("Home");
  for (let i = 1; i < column; i++) await keyboard.press("ArrowRight");
}

/** Shows the hover at the caret from the keyboard (Ctrl+K Ctrl+I) and returns its box. */
export async function hoverAtCaret(page: Page) {
  await page.keyboard.press("Control+k");
  await page.keyboard.press("Control+i");
  const hover = page.locator(".monaco-hover:not(.hidden)").first();
  await expect(hover).toBeVisible({ timeout: 20_000 });
  return hover;
}

/** The row of the open completion list whose label is `label` exactly (its aria-label is "label, Kind"). */
export function suggestion(page: Page, label: string) {
  return page.locator(`.suggest-widget.visible .monaco-list-row[aria-label^="${label}, "]`);
}
