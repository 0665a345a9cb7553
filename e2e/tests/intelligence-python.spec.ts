import type { Page } from "@playwright/test";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode } from "../support/terminal";

/** The lines of the shown file with a squiggle of `kind`, as the editor draws them. */
function squiggledLines(page: Page, kind: "error" | "warning"): Promise<number[]> {
  return page.evaluate((className) => {
    const editor = document.querySelector('[data-testid="code-editor"]');
    if (!editor) return [];
    const numbers = Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers"));
    const lines = Array.from(editor.querySelectorAll(`.${className}`)).map((squiggle) => {
      const box = squiggle.getBoundingClientRect();
      const middle = box.top + box.height / 2;
      const number = numbers.find((n) => {
        const line = n.getBoundingClientRect();
        return middle >= line.top && middle < line.bottom;
      });
      return Number(number?.textContent ?? 0);
    });
    return [...new Set(lines)].sort((a, b) => a - b);
  }, `squiggly-${kind}`);
}

/** Both people on Python, the editor showing src/main.py. */
async function onPython(host: EditorScreen, guest: EditorScreen) {
  await guest.page.getByLabel("Language").selectOption("python");
  for (const screen of [host, guest]) {
    await expect.poll(() => screen.language()).toBe("python");
    await expect.poll(() => screen.activeFile()).toBe("src/main.py");
  }
}

/** Hovers the first squiggle of `kind` and expects `text` in the hover that opens. */
async function expectHover(screen: EditorScreen, kind: "error" | "warning", text: string) {
  await screen.page.locator(`.squiggly-${kind}`).first().hover({ force: true });
  await expect(screen.page.locator(".monaco-hover").filter({ hasText: text })).toBeVisible();
  await screen.page.mouse.move(0, 0);
}

// pyright's worker is 17 MB to parse and its first check reads typeshed: give it time on two cores.
test.setTimeout(120_000);

test.describe("Python intelligence in the browser", () => {
  test("a guest gets pyright's standard-library completion; pyright's undefined name and Ruff's unused import are marked for both", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors("python-intel");
    await onPython(host, guest);
    await setCode(guest, "import os\nimport json\n\nprint(os.getcwd())\nprint(undefined_name)\n", [host]);

    for (const screen of [host, guest]) {
      // pyright: the undefined name is an error (Ruff's own F821 gives way to it).
      await expect.poll(() => squiggledLines(screen.page, "error"), { timeout: 60_000 }).toEqual([5]);
      await expectHover(screen, "error", '"undefined_name" is not defined');
      // Ruff: the unused import is a warning with its rule code.
      await expect.poll(() => squiggledLines(screen.page, "warning"), { timeout: 30_000 }).toEqual([2]);
      await expectHover(screen, "warning", "F401 `json` imported but unused");
    }

    // The guest asks for os's members: pyright offers os.path (no "path" in the file for
    // word completion to find).
    await guest.caretToEndOf(5);
    await guest.page.keyboard.press("Enter");
    await guest.type("os.pa");
    const suggestions = guest.page.locator(".suggest-widget .monaco-list-row");
    await expect(suggestions.filter({ hasText: /^path/ }).first()).toBeVisible({ timeout: 30_000 });
    await expect(guest.page.locator(".suggest-widget")).not.toContainText("No suggestions");
  });

  test("a viewer, read-only, hovers a function from another .py file and goes to its definition", async ({
    page,
    newPage,
    request,
  }) => {
    const account = await createHostedSession(request, "python-def");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    await host.open(account.sessionId);
    await host.page.getByLabel("Language").selectOption("python");
    await expect.poll(() => host.activeFile()).toBe("src/main.py");
    await host.create("file", "src", "helper.py");
    await host.openFile("src/helper.py");
    // One line: typed text gets Monaco's auto-indent, which would indent a body twice.
    await setCode(host, "def greet(name: str) -> str: return name.upper()\n", [], "src/helper.py");
    await host.openFile("src/main.py");
    await setCode(host, 'from helper import greet\n\nprint(greet("ann"))\n', [], "src/main.py");

    const access = page.getByTestId("session-access");
    await access.getByRole("button", { name: "Share links" }).click();
    const viewer = new EditorScreen(await newPage());
    await viewer.page.goto(await access.getByTestId("share-viewKey").inputValue());
    await expect(viewer.page.getByTestId("view-only")).toContainText("View only");
    await expect(viewer.page.locator(".monaco-editor .view-lines")).toContainText('print(greet("ann"))');

    // pyright resolved the import to the peer's file: the hover shows its signature.
    const call = viewer.page.locator(".view-line").filter({ hasText: "print(greet" }).getByText("greet");
    await expect(async () => {
      await viewer.page.mouse.move(0, 0);
      await call.hover();
      await expect(
        viewer.page.locator(".monaco-hover").filter({ hasText: "(name: str) -> str" }),
      ).toBeVisible({
        timeout: 3_000,
      });
    }).toPass({ timeout: 60_000 });
    await expect.poll(() => squiggledLines(viewer.page, "error")).toEqual([]);

    await call.click();
    await viewer.page.keyboard.press("F12");
    await expect.poll(() => viewer.activeFile(), { timeout: 30_000 }).toBe("src/helper.py");
  });
});
