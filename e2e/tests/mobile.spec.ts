import type { Locator, Page } from "@playwright/test";
import { expectNoA11yViolations } from "../support/a11y";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { Terminal } from "../support/terminal";

/** The editor's own chrome, without Monaco's markup (not ours). */
const SCOPE = { exclude: [".monaco-editor"] };

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "tablet", width: 768, height: 1024 },
] as const;

/** The page scrolls sideways by nothing: every part of the screen fits the window's width. */
async function expectNoHorizontalOverflow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "page width").toBeLessThanOrEqual(innerWidth);
}

/** The element lies wholly inside the window, once it has slid or faded in. */
async function expectOnScreen(page: Page, locator: Locator) {
  await expect(locator).toBeVisible();
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (!box || !viewport) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
}

/** The share of the window the code editor covers. */
async function editorShare(page: Page): Promise<number> {
  const box = await page.getByTestId("code-editor").boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return 0;
  return (box.width * box.height) / (viewport.width * viewport.height);
}

function focusIsInside(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.contains(document.activeElement));
}

for (const size of SIZES) {
  test.describe(`the editor on a ${size.name} (${size.width}x${size.height})`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the editor takes the screen; drawers, the menu, Run Code, the terminal and End Session all work", async ({
      page,
      request,
    }) => {
      const host = await createHostedSession(request, `mobile-${size.name}`);
      await signInContext(page.context(), host);
      const screen = new EditorScreen(page);
      await screen.open(host.sessionId);
      const term = new Terminal(page);

      // The editor has most of the screen: no sidebar beside it, the terminal closed until asked for.
      await expect(page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/main.js");
      await expect(page.locator("#file-sidebar")).toHaveCount(0);
      await expect(term.panel).toHaveCount(0);
      expect(await editorShare(page)).toBeGreaterThan(0.6);
      const sidebarToggle = page.getByRole("button", { name: "Show sidebar" });
      const more = page.getByRole("button", { name: "More actions" });
      for (const control of [
        sidebarToggle,
        more,
        term.runButton,
        page.getByRole("button", { name: "Show terminal" }),
      ])
        await expectOnScreen(page, control);
      await expectNoHorizontalOverflow(page);
      await expectNoA11yViolations(page, SCOPE);

      // The sidebar drawer: focus moves in, Escape closes it and gives focus back to its toggle.
      await sidebarToggle.click();
      const sidebar = page.getByRole("dialog", { name: "Sidebar" });
      await expect(sidebar).toBeVisible();
      await expect(sidebar).toHaveAttribute("aria-modal", "true");
      await expectOnScreen(page, sidebar);
      expect(await focusIsInside(sidebar)).toBe(true);
      await page.screenshot({ path: test.info().outputPath(`sidebar-${size.name}.png`) });
      await expectNoA11yViolations(page, SCOPE);
      await expectNoHorizontalOverflow(page);
      await page.keyboard.press("Escape");
      await expect(sidebar).toBeHidden();
      await expect(page.getByRole("button", { name: "Show sidebar" })).toBeFocused();

      // Its close button closes it too; a new file made in it opens in the editor and the drawer goes.
      await page.getByRole("button", { name: "Show sidebar" }).click();
      await sidebar.getByRole("button", { name: "Close sidebar" }).click();
      await expect(sidebar).toBeHidden();
      await expect(page.getByRole("button", { name: "Show sidebar" })).toBeFocused();
      await page.getByRole("button", { name: "Show sidebar" }).click();
      // Escape in the name box cancels the name, not the drawer.
      await screen.treeItem("src").focus();
      await sidebar.getByRole("button", { name: "New file" }).click();
      const nameBox = sidebar.getByRole("textbox", { name: "New file name" });
      await nameBox.press("Escape");
      await expect(nameBox).toHaveCount(0);
      await expect(sidebar).toBeVisible();
      await screen.treeItem("src").focus();
      await sidebar.getByRole("button", { name: "New file" }).click();
      await nameBox.fill("util.js");
      await nameBox.press("Enter");
      await expect(sidebar).toBeHidden();
      await expect(page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/util.js");

      // Opening a file from the drawer: the editor shows it and has the focus.
      await page.getByRole("button", { name: "Show sidebar" }).click();
      await screen.treeItem("src/main.js").locator(":scope > .tree-row").click();
      await expect(sidebar).toBeHidden();
      await expect(page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/main.js");
      await expect.poll(() => focusIsInside(page.locator(".monaco-editor"))).toBe(true);

      // Run Code, straight from the top bar: the terminal opens with the program's output.
      await term.runButton.click();
      await expect(term.panel).toBeVisible();
      await expect(term.entries("output").first()).toHaveText("Hello, world!");
      await expect(term.runButton).toHaveText("Run Code");
      await expectNoHorizontalOverflow(page);
      expect(await editorShare(page)).toBeGreaterThan(0.3);

      // The terminal closes and opens from the top bar, and closes from its own button.
      await page.getByRole("button", { name: "Hide terminal" }).click();
      await expect(term.panel).toHaveCount(0);
      expect(await editorShare(page)).toBeGreaterThan(0.6);
      await page.getByRole("button", { name: "Show terminal" }).click();
      await expect(term.panel).toBeVisible();
      await term.panel.getByRole("button", { name: "Close terminal" }).click();
      await expect(term.panel).toHaveCount(0);

      // The menu: opening focuses its first item, the arrows move, Escape closes it onto its button.
      await more.click();
      const menu = page.getByRole("menu", { name: "More actions" });
      await expect(more).toHaveAttribute("aria-expanded", "true");
      await expectOnScreen(page, menu);
      await expect(menu.getByRole("menuitem", { name: /^Chat/ })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(menu.getByRole("menuitem", { name: /^Call/ })).toBeFocused();
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      await expect(menu.getByRole("menuitem", { name: "End Session" })).toBeFocused();
      await expect(menu.getByRole("menuitem", { name: /^Language/ })).toContainText("JavaScript");
      await expectNoA11yViolations(page, SCOPE);
      await expectNoHorizontalOverflow(page);
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(more).toHaveAttribute("aria-expanded", "false");
      await expect(more).toBeFocused();

      // The chat drawer, from the menu by keyboard: its text box takes the focus; Escape gives it back.
      await page.keyboard.press("Enter");
      await expect(menu.getByRole("menuitem", { name: /^Chat/ })).toBeFocused();
      await page.keyboard.press("Enter");
      const chat = page.getByRole("dialog", { name: "Chat" });
      await expect(chat).toBeVisible();
      await expectOnScreen(page, chat);
      await expect(chat.getByRole("textbox", { name: "Message" })).toBeFocused();
      await chat.getByRole("textbox", { name: "Message" }).fill("hello from a small screen");
      await chat.getByRole("textbox", { name: "Message" }).press("Enter");
      await expect(chat.getByTestId("chat-text")).toHaveText(["hello from a small screen"]);
      await expectNoA11yViolations(page, SCOPE);
      await expectNoHorizontalOverflow(page);
      await page.keyboard.press("Escape");
      await expect(chat).toBeHidden();
      await expect(more).toBeFocused();

      // The call panel's drawer, closed by its own button.
      await more.click();
      await menu.getByRole("menuitem", { name: /^Call/ }).click();
      const call = page.getByRole("dialog", { name: "Live Session" });
      await expect(call).toBeVisible();
      await expectOnScreen(page, call);
      await call.getByRole("button", { name: "Close call panel" }).click();
      await expect(call).toBeHidden();
      await expect(more).toBeFocused();

      // The replay's drawer, closed by its own button.
      await more.click();
      await menu.getByRole("menuitem", { name: "Replay" }).click();
      const replay = page.getByRole("dialog", { name: "Replay" });
      await expectOnScreen(page, replay);
      await expect(replay.getByTestId("replay-panel")).toBeVisible();
      await replay.getByRole("button", { name: "Close replay" }).click();
      await expect(replay).toBeHidden();
      await expect(more).toBeFocused();

      // End Session is in the menu: the host is asked to confirm, and Cancel keeps the session.
      await more.click();
      await menu.getByRole("menuitem", { name: "End Session" }).click();
      const confirm = page.getByRole("dialog", { name: "Confirm Session Termination" });
      await expect(confirm).toBeVisible();
      await expectOnScreen(page, confirm.getByRole("button", { name: "End Session" }));
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(confirm).toBeHidden();
      await expect(screen.status).toContainText("CONNECTED");

      // The language, from the menu's small dialog: the switch reaches the session.
      await more.click();
      await menu.getByRole("menuitem", { name: /^Language/ }).click();
      const languageDialog = page.getByRole("dialog", { name: "Language" });
      await expectOnScreen(page, languageDialog);
      await expectNoA11yViolations(page, SCOPE);
      await languageDialog.getByLabel("Language").selectOption("python");
      await expect.poll(() => screen.language()).toBe("python");
      await languageDialog.getByRole("button", { name: "Done" }).click();
      await expect(languageDialog).toBeHidden();
      await expect(more).toBeFocused();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: test.info().outputPath(`editor-${size.name}.png`) });
    });
  });
}
