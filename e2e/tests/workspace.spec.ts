import { unzipSync } from "fflate";
import { createHostedSession, EditorScreen, openThree, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode, Terminal } from "../support/terminal";

test.describe("a project of many files", () => {
  test("three people build, run, rename, delete, follow and download a project", async ({
    page,
    newPage,
    request,
  }) => {
    // Three browsers and two runs: 39 s one test at a time on two cores, over a minute beside another.
    test.setTimeout(120_000);
    const account = await createHostedSession(request);
    const { sessionId } = account;
    await signInContext(page.context(), account);
    const [host, ben, cy] = await openThree(page, newPage, sessionId);
    // The spec's tree: src (open) holding components and main.js.
    await expect(host.treeItem("src")).toHaveAttribute("aria-expanded", "true");
    await expect(host.treeItem("src/components")).toBeVisible();
    expect(await host.activeFile()).toBe("src/main.js");

    // A module in a new folder, imported by main.js, run for everyone.
    await host.create("folder", "src", "lib");
    await host.create("file", "src/lib", "util.js");
    await expect(host.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/lib/util.js");
    await setCode(host, "exports.twice = (n) => n * 2;\n", [ben, cy], "src/lib/util.js");
    await host.openFile("src/main.js");
    await setCode(host, 'const { twice } = require("./lib/util");\nconsole.log("twice 21 =", twice(21));\n', [
      ben,
      cy,
    ]);
    await new Terminal(host.page).runButton.click();
    for (const screen of [host, ben, cy]) {
      await expect(new Terminal(screen.page).entries("output").last()).toContainText("twice 21 = 42");
    }

    // The same in Python: the switch opens src/main.py (created from the starter) for everyone.
    await ben.page.getByLabel("Language").selectOption("python");
    for (const screen of [host, ben, cy]) {
      await expect(screen.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/main.py");
    }
    await ben.create("file", "src", "helper.py");
    await setCode(ben, 'greet = lambda name: f"hi {name}"\n', [host, cy], "src/helper.py");
    await ben.openFile("src/main.py");
    await setCode(ben, 'from helper import greet\nprint(greet("py"))\n', [host, cy]);
    await new Terminal(ben.page).runButton.click();
    await expect(new Terminal(cy.page).entries("output").last()).toContainText("hi py");

    // A rename follows the person who has the file open, text and all.
    await ben.openFile("src/lib/util.js");
    await host.treeItem("src/lib/util.js").focus();
    await host.page.keyboard.press("F2");
    const renameBox = host.page.getByRole("textbox", { name: "New name for src/lib/util.js" });
    await renameBox.fill("helpers.js");
    await renameBox.press("Enter");
    await expect(ben.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/lib/helpers.js");
    expect(await ben.text("src/lib/helpers.js")).toBe("exports.twice = (n) => n * 2;\n");
    await expect(ben.page.getByRole("button", { name: "helpers.js", exact: true })).toBeVisible();

    // Following someone: their file, across a switch, until Escape.
    await cy.page.getByRole("button", { name: `Follow ${account.name}` }).click();
    await expect(cy.page.getByTestId("follow-banner")).toContainText("Esc to stop");
    await host.openFile("src/helper.py");
    await expect(cy.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/helper.py");
    await host.openFile("src/lib/helpers.js");
    await expect(cy.page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/lib/helpers.js");
    await cy.page.keyboard.press("Escape");
    await expect(cy.page.getByTestId("follow-banner")).toHaveCount(0);
    await host.openFile("src/main.js");
    expect(await cy.activeFile()).toBe("src/lib/helpers.js");

    // Deleting a folder (context menu, confirmation) closes the file it held, with a notice.
    await host.treeItem("src/lib").locator(":scope > .tree-row").click({ button: "right" });
    await host.page.getByRole("menuitem", { name: "Delete" }).click();
    await host.page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(ben.page.getByText("src/lib/helpers.js was deleted.")).toBeVisible();
    await expect(ben.treeItem("src/lib")).toHaveCount(0);
    expect(await cy.files()).toEqual(["src/helper.py", "src/main.js", "src/main.py"]);

    // The download holds exactly the tree.
    const [download] = await Promise.all([
      ben.page.waitForEvent("download"),
      ben.page.getByRole("button", { name: "Download project" }).click(),
    ]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const entries = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(entries).sort()).toEqual([
      "src/",
      "src/components/",
      "src/helper.py",
      "src/main.js",
      "src/main.py",
    ]);
    expect(new TextDecoder().decode(entries["src/helper.py"])).toBe(await ben.text("src/helper.py"));
  });

  test("the tree works from the keyboard", async ({ page, request }) => {
    const { sessionId } = await createHostedSession(request);
    const screen = new EditorScreen(page);
    await screen.open(sessionId);
    await screen.treeItem("src").focus();
    await page.keyboard.press("ArrowDown");
    await expect(screen.treeItem("src/components")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(screen.treeItem("src/main.js")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(screen.treeItem("src")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(screen.treeItem("src")).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("ArrowRight");
    await expect(screen.treeItem("src")).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("End");
    await expect(screen.treeItem("src/main.js")).toBeFocused();
    await page.keyboard.press("Delete");
    await expect(page.getByRole("dialog")).toContainText("Delete src/main.js");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    // The closed dialog hands focus back to the item it was opened from; only then does
    // focusing another item stick (on a slow machine the hand-back came after it).
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(screen.treeItem("src/main.js")).toBeFocused();
    await screen.treeItem("src/components").focus();
    await page.keyboard.press("Delete");
    await expect(page.getByRole("dialog")).toContainText("Delete src/components");
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(screen.treeItem("src/components")).toHaveCount(0);
    // A refused name says why and changes nothing.
    await screen.treeItem("src").focus();
    await page.getByRole("button", { name: "New file" }).click();
    const box = page.getByRole("textbox", { name: "New file name" });
    await box.fill("../escape.js");
    await box.press("Enter");
    await expect(page.getByText("A path cannot contain '..'.")).toBeVisible();
    expect(await screen.files()).toEqual(["src/main.js"]);
  });

  test("edits made offline to several files merge when back", async ({ page, newPage, request }) => {
    const { sessionId } = await createHostedSession(request);
    const away = new EditorScreen(page);
    const stay = new EditorScreen(await newPage());
    await away.open(sessionId);
    await stay.open(sessionId);
    await away.create("file", "src", "second.js");
    await expect.poll(() => stay.files()).toEqual(["src/main.js", "src/second.js"]);

    await page.context().setOffline(true);
    await expect(away.status).toHaveText("OFFLINE");
    // Offline, the tree still opens files and the editor still types into them.
    await away.openFile("src/main.js");
    await away.caretToEndOf(1);
    await away.type(" offline-main");
    await away.openFile("src/second.js");
    await away.caretToEndOf(1);
    await away.type("// offline-second");
    await stay.openFile("src/second.js");
    await stay.caretToEndOf(1);
    await stay.type("// online-second ");
    expect(await stay.text("src/main.js")).not.toContain("offline-main");

    await page.context().setOffline(false);
    await expect(away.status).toHaveText("CONNECTED", { timeout: 15_000 });
    for (const screen of [away, stay]) {
      await expect.poll(() => screen.text("src/main.js")).toContain("offline-main");
      await expect.poll(() => screen.text("src/second.js")).toContain("offline-second");
      await expect.poll(() => screen.text("src/second.js")).toContain("online-second");
    }
    expect(await away.text("src/second.js")).toBe(await stay.text("src/second.js"));
  });
});
