import type { Page } from "@playwright/test";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode } from "../support/terminal";

// No `{` followed by a line break: Monaco would indent what follows it as it is typed.
const MESSY = [
  'const  greeting="hello"',
  "function add(a,b){return a+b}",
  "const items=[1,2,3].map(x=>x*2)",
  "// the guest's line",
  "console.log(greeting, add(1, 2), items);",
  "",
].join("\n");
const FORMATTED = [
  'const greeting = "hello";',
  "function add(a, b) {",
  "  return a + b;",
  "}",
  "const items = [1, 2, 3].map((x) => x * 2);",
  "// the guest's line",
  "console.log(greeting, add(1, 2), items);",
  "",
].join("\n");

const formatButton = (screen: EditorScreen) => screen.page.getByRole("button", { name: "Format document" });
const toasts = (page: Page) => page.locator(".Toastify");
const suggestions = (page: Page) => page.locator(".suggest-widget.visible");

/** Opens the settings disclosure of the top bar. */
async function openSettings(screen: EditorScreen) {
  const button = screen.page.getByRole("button", { name: "Code intelligence settings" });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
}

test.describe("Format Document", () => {
  test("formats for everyone as one edit: a guest's caret below keeps its character, one Ctrl+Z takes it back", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors("format");
    await setCode(host, MESSY, [guest]);

    // The guest's caret at the end of an unchanged line further down.
    await guest.caretToEndOf(4);
    await host.page.locator(".monaco-editor .view-lines").click();
    await host.page.keyboard.press("Shift+Alt+F");
    for (const screen of [host, guest])
      await expect.poll(() => screen.text(), { timeout: 15_000 }).toBe(FORMATTED);

    // What the guest types now lands where their caret was, on the same character.
    await guest.type("!");
    const withGuestEdit = FORMATTED.replace("// the guest's line", "// the guest's line!");
    for (const screen of [host, guest]) await expect.poll(() => screen.text()).toBe(withGuestEdit);

    // One Ctrl+Z for the host: the format goes, the guest's keystroke stays.
    await host.page.locator(".monaco-editor .view-lines").click();
    await host.page.keyboard.press("Control+z");
    const undone = MESSY.replace("// the guest's line", "// the guest's line!");
    for (const screen of [host, guest]) await expect.poll(() => screen.text()).toBe(undone);
  });

  test("formats JSON and CSS from the button; a syntax error says so and changes nothing; a text file has no formatter", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors("format-kinds");

    await host.create("file", "src", "data.json");
    await host.openFile("src/data.json");
    await setCode(host, '{"name":"ensemble","tags":["a","b"]}', [guest], "src/data.json");
    await formatButton(host).click();
    for (const screen of [host, guest])
      await expect
        .poll(() => screen.text("src/data.json"))
        .toBe('{ "name": "ensemble", "tags": ["a", "b"] }\n');

    await host.create("file", "src", "style.css");
    await host.openFile("src/style.css");
    await setCode(host, "a{color:red;margin:0}", [guest], "src/style.css");
    await formatButton(host).click();
    for (const screen of [host, guest])
      await expect.poll(() => screen.text("src/style.css")).toBe("a {\n  color: red;\n  margin: 0;\n}\n");

    await host.openFile("src/main.js");
    const broken = "let x = ;\n";
    await setCode(host, broken, [guest]);
    await formatButton(host).click();
    await expect(toasts(host.page)).toContainText("Could not format src/main.js: Unexpected token (1:9)");
    expect(await guest.text()).toBe(broken);
    expect(await host.text()).toBe(broken);

    await host.create("file", "src", "notes.txt");
    await host.openFile("src/notes.txt");
    await expect(formatButton(host)).toBeDisabled();
    await host.page.locator(".monaco-editor .view-lines").click();
    await host.page.keyboard.press("Shift+Alt+F");
    await expect(toasts(host.page)).toContainText("There is no formatter for plaintext files.");
  });
});

test.describe("Format Document for a viewer", () => {
  test("is not offered: no button, and the shortcut changes nothing; the host's format reaches them", async ({
    page,
    newPage,
    request,
  }) => {
    const account = await createHostedSession(request, "format-viewer");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    await host.open(account.sessionId);
    const access = page.getByTestId("session-access");
    await access.getByRole("button", { name: "Share links" }).click();
    const viewLink = await access.getByTestId("share-viewKey").inputValue();
    const viewer = new EditorScreen(await newPage());
    await viewer.page.goto(viewLink);
    await expect(viewer.page.getByTestId("view-only")).toContainText("View only");

    await setCode(host, MESSY, [viewer]);
    await expect(formatButton(host)).toBeEnabled();
    await expect(formatButton(viewer)).toHaveCount(0);
    await viewer.page.locator(".monaco-editor .view-lines").click();
    await viewer.page.keyboard.press("Shift+Alt+F");
    // Read-only: the shortcut's action does not run (and the server refuses a viewer's edit anyway).
    expect(await viewer.text()).toBe(MESSY);

    await formatButton(host).click();
    for (const screen of [host, viewer]) await expect.poll(() => screen.text()).toBe(FORMATTED);
  });
});

test.describe("completions for the session", () => {
  test("the host switches completions off: the guest gets no list typing or with Ctrl+Space; on again, word suggestions", async ({
    twoEditors,
  }) => {
    const { host, guest } = await twoEditors("interview");
    await setCode(host, "const greeting = 1;\n", [guest]);

    // Off for everyone, from the host's settings.
    await openSettings(host);
    const sessionSwitch = host.page.getByRole("checkbox", { name: "Completions (off: interview mode)" });
    await expect(sessionSwitch).toBeChecked();
    // It shows the session's state: it turns once the server stored the switch and told everyone.
    await sessionSwitch.click();
    await expect(sessionSwitch).not.toBeChecked();
    await openSettings(guest);
    await expect(
      guest.page.getByText("The host has switched completions off for this session."),
    ).toBeVisible();
    await guest.page.keyboard.press("Escape");

    // The guest types the start of a word the file holds, then asks with Ctrl+Space.
    await guest.caretToEndOf(2);
    await guest.type("gree");
    await guest.page.keyboard.press("Control+Space");
    // One more letter of the word (it would keep a list open, refiltered), then its round
    // trip through the server to the host: by then a list would show (the second half shows it does).
    await guest.type("t");
    await expect.poll(() => host.text()).toBe("const greeting = 1;\ngreet");
    await expect(suggestions(guest.page)).toHaveCount(0);

    // On again: the same keys show the file's word.
    await host.page.keyboard.press("Escape");
    await openSettings(host);
    await sessionSwitch.click();
    await expect(sessionSwitch).toBeChecked();
    await openSettings(guest);
    await expect(guest.page.getByText("The host has switched completions off for this session.")).toHaveCount(
      0,
    );
    await guest.page.keyboard.press("Escape");
    await guest.caretToEndOf(2);
    await guest.type("i");
    await expect(suggestions(guest.page)).toBeVisible();
    await expect(suggestions(guest.page)).toContainText("greeting");
    await guest.page.keyboard.press("Escape");
    await expect(suggestions(guest.page)).toHaveCount(0);
    await guest.page.keyboard.press("Control+Space");
    await expect(suggestions(guest.page)).toContainText("greeting");
  });
});
