import { EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { caretAt, expectErrorsOn, hoverAtCaret, suggestion } from "../support/intelligence";
import { setCode } from "../support/terminal";

// A block per line: Monaco indents what follows a `{` as it is typed.
const UTIL =
  'export function add(a: number, b: number): number { return a + b; }\nexport const config = { name: "demo", retries: 3 };\n';
const MAIN =
  'import { add, config } from "./util";\nconst total: number = add(1, "two");\nconsole.log(total, config.retries);\n';
/** Where `add` is called in MAIN: line 2, inside the name. */
const CALL = { line: 2, column: 24 } as const;

/** The labels of the editor's context menu, opened from the keyboard at the caret. */
async function contextMenu(screen: EditorScreen) {
  await screen.page.keyboard.press("Shift+F10");
  const items = screen.page.locator(".monaco-menu .action-label");
  await expect(items.filter({ hasText: "Go to Definition" })).toBeVisible();
  const labels = await items.allTextContents();
  await screen.page.keyboard.press("Escape");
  return labels;
}

/** A TypeScript session with src/util.ts (by the host) and src/main.ts importing it, shown to both. */
async function twoTypeScriptFiles(host: EditorScreen, guest: EditorScreen) {
  await host.page.getByLabel("Language").selectOption("typescript");
  for (const screen of [host, guest]) {
    await expect(screen.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/main.ts");
  }
  await host.waitUntilLive();
  await host.create("file", "src", "util.ts");
  await setCode(host, UTIL, [guest], "src/util.ts");
  await host.openFile("src/main.ts");
  await setCode(host, MAIN, [guest], "src/main.ts");
  await guest.openFile("src/main.ts");
}

test.describe("JavaScript and TypeScript intelligence", () => {
  // Each browser parses its own 7 MB TypeScript worker and builds the program: on two shared
  // cores that is seconds per browser, and these tests run two or three of them.
  test.describe.configure({ timeout: 180_000 });

  test("a type error across files is marked for both; hover, completion and definition reach the other file", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors("tsintel");
    await twoTypeScriptFiles(host, guest);

    // `add` takes numbers (util.ts): the string argument in main.ts is an error, for both.
    for (const screen of [host, guest]) await expectErrorsOn(screen, [2]);
    await guest.page.locator(".monaco-editor .view-lines").click();
    await guest.page.keyboard.press("F8");
    await expect(guest.page.locator(".marker-widget")).toContainText(
      "Argument of type 'string' is not assignable to parameter of type 'number'",
    );
    await guest.page.keyboard.press("Escape");

    // The guest's hover shows the other file's signature.
    await caretAt(guest, CALL.line, CALL.column);
    await expect(await hoverAtCaret(guest.page)).toContainText("(alias) add(a: number, b: number): number");
    await guest.page.keyboard.press("Escape");

    // Member completion after a dot: the object's own members, typed, not the file's words.
    await caretAt(guest, 3, 1);
    await guest.page.keyboard.press("End");
    await guest.page.keyboard.press("Enter");
    await guest.type("config.");
    await expect(suggestion(guest.page, "retries")).toBeVisible({ timeout: 20_000 });
    await expect(suggestion(guest.page, "name")).toBeVisible();
    await expect(suggestion(guest.page, "console")).toHaveCount(0);
    await guest.type("name.toUpp");
    await expect(suggestion(guest.page, "toUpperCase")).toBeVisible();
    await guest.page.keyboard.press("Escape");
    // Typed halfway, the line is an error of its own: gone again.
    await guest.page.keyboard.press("Shift+Home");
    await guest.page.keyboard.press("Backspace");
    await guest.page.keyboard.press("Backspace");
    await expect.poll(() => guest.text("src/main.ts")).toBe(MAIN);

    // The host fixes the call; the mark goes for both.
    await caretAt(host, CALL.line, 30);
    await host.page.keyboard.press("Shift+End");
    await host.page.keyboard.insertText("2);");
    for (const screen of [host, guest]) await expectErrorsOn(screen, []);

    // Go to Definition opens util.ts with the caret on the declaration.
    await caretAt(host, CALL.line, CALL.column);
    await host.page.keyboard.press("F12");
    await expect(host.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/util.ts");
    await expect(host.page.locator(".line-numbers.active-line-number")).toHaveText("1");
  });

  test("a JavaScript session's files get Node's types", async ({ twoEditors }) => {
    const { host, guest } = await twoEditors("jsnode");
    expect(await guest.activeFile()).toBe("src/main.js");
    await setCode(host, 'const fs = require("fs");\nconst text = fs.readFileSync("notes.txt", "utf8");\n', [
      guest,
    ]);

    // Without @types/node, `require("fs")` is `any` and so is `text`.
    await caretAt(guest, 2, 8);
    await expect(await hoverAtCaret(guest.page)).toContainText("const text: string");
    await guest.page.keyboard.press("Escape");
    await caretAt(guest, 2, 18);
    await expect(await hoverAtCaret(guest.page)).toContainText(
      "function readFileSync(path: fs.PathOrFileDescriptor",
    );
    await guest.page.keyboard.press("Escape");

    await caretAt(guest, 3, 1);
    await guest.type("process.memoryU");
    await expect(suggestion(guest.page, "memoryUsage")).toBeVisible({ timeout: 20_000 });
    await guest.page.keyboard.press("Escape");
  });

  test("rename across files is one shared edit and one undo; a viewer hovers and goes to definition, no rename", async ({
    twoEditors,
    newPage,
  }) => {
    const { host, guest } = await twoEditors("tsrename");
    await twoTypeScriptFiles(host, guest);
    for (const screen of [host, guest]) await expectErrorsOn(screen, [2]);

    await caretAt(host, CALL.line, CALL.column);
    expect(await contextMenu(host)).toContain("Rename Symbol");
    await host.page.keyboard.press("F2");
    const input = host.page.locator(".rename-box input");
    await expect(input).toBeFocused();
    await input.fill("sum");
    await input.press("Enter");
    const renamed = { main: MAIN.replaceAll("add", "sum"), util: UTIL.replaceAll("add", "sum") };
    for (const screen of [host, guest]) {
      await expect.poll(() => screen.text("src/main.ts")).toBe(renamed.main);
      await expect.poll(() => screen.text("src/util.ts")).toBe(renamed.util);
    }

    // One Ctrl+Z of the host's takes the whole rename back, in the file no tab shows too.
    await host.page.keyboard.press("Control+z");
    for (const screen of [host, guest]) {
      await expect.poll(() => screen.text("src/main.ts")).toBe(MAIN);
      await expect.poll(() => screen.text("src/util.ts")).toBe(UTIL);
    }

    // A viewer (the view link): hover and Go to Definition, but rename is an edit.
    const access = host.page.getByTestId("session-access");
    await access.getByRole("button", { name: "Share links" }).click();
    const viewLink = await access.getByTestId("share-viewKey").inputValue();
    const viewer = new EditorScreen(await newPage());
    await viewer.page.goto(viewLink);
    await expect(viewer.page.getByTestId("view-only")).toContainText("View only");
    await expect.poll(() => viewer.text("src/main.ts")).toBe(MAIN);
    await viewer.openFile("src/main.ts");
    await expectErrorsOn(viewer, [2]);
    await caretAt(viewer, CALL.line, CALL.column);
    await expect(await hoverAtCaret(viewer.page)).toContainText("(alias) add(a: number, b: number): number");
    await viewer.page.keyboard.press("Escape");
    expect(await contextMenu(viewer)).not.toContain("Rename Symbol");
    await viewer.page.keyboard.press("F12");
    await expect(viewer.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/util.ts");
  });

  test("a completion asked for while the worker loads waits for it, never 'No suggestions'", async ({
    twoEditors,
    newPage,
  }) => {
    const { account } = await twoEditors("tswarm");
    const late = new EditorScreen(await newPage());
    // Everything the completion list shows, from the first moment of the page.
    await late.page.addInitScript(() => {
      const seen = new Set<string>();
      (window as unknown as { suggestShown: Set<string> }).suggestShown = seen;
      new MutationObserver(() => {
        const widget = document.querySelector(".suggest-widget.visible");
        if (!widget) return;
        const message = widget.querySelector(".message");
        if (message?.textContent && getComputedStyle(message).display !== "none")
          seen.add(message.textContent);
        for (const row of Array.from(widget.querySelectorAll(".monaco-list-row .label-name")))
          seen.add(row.textContent ?? "");
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await late.open(account.sessionId);
    // At once, while the TypeScript worker is still on its way: the list waits for it.
    await caretAt(late, 3, 1);
    await late.type("process.");
    await expect(suggestion(late.page, "argv")).toBeVisible({ timeout: 30_000 });
    const shown = await late.page.evaluate(() => [
      ...(window as unknown as { suggestShown: Set<string> }).suggestShown,
    ]);
    expect(shown).not.toContain("No suggestions.");
    // Nor the file's words, which Monaco's word completion offers when no service answers.
    expect(shown).not.toContain("Welcome");
  });
});
