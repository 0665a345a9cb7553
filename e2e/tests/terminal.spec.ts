import { expectNoA11yViolations } from "../support/a11y";
import { createHostedSession, EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode, TERMINAL_EMPTY, Terminal, twoAtTerminals } from "../support/terminal";

test.describe("shared terminal", () => {
  test("two users run code and see the same terminal; commands, clear and a late joiner's history", async ({
    newPage,
    twoEditors,
  }) => {
    const { host, ann, ben, annTerm, benTerm } = await twoAtTerminals(twoEditors, "runner");
    const both = [annTerm, benTerm];
    for (const term of both) {
      await expect(term.log).toHaveText(TERMINAL_EMPTY);
      await expect(term.runButton).toHaveText("Run Code");
    }

    // JavaScript: Ann runs, both see the input line and the output.
    await setCode(ann, 'console.log("hello from " + "ensemble");\n', [ben]);
    await annTerm.runButton.click();
    for (const term of both) {
      await expect(term.entries("input").first()).toHaveText("$ run");
      await expect(term.entries("output").first()).toHaveText("hello from ensemble");
    }

    // A slow run: Run Code is Stop for everyone until it ends.
    await setCode(ann, 'setTimeout(() => console.log("slow done"), 1500);\n', [ben]);
    await annTerm.runButton.click();
    await Promise.all(both.map((term) => expect(term.runButton).toHaveText("Stop")));
    // A second run meanwhile is refused, and only the one who asked is told.
    await benTerm.command("run");
    await expect(benTerm.entries("error").last()).toHaveText(
      "Code is already running in this session. Wait for it to finish.",
    );
    for (const term of both) {
      await expect(term.log).toContainText("slow done");
      await expect(term.runButton).toHaveText("Run Code");
      await expect(term.runButton).toBeEnabled();
    }

    // Python after a language switch.
    await ben.page.getByLabel("Language").selectOption("python");
    for (const screen of [ann, ben]) await expect.poll(() => screen.language()).toBe("python");
    await ann.waitUntilLive();
    await setCode(ann, "print(sum(range(10)))\n", [ben]);
    await annTerm.runButton.click();
    for (const term of both) await expect(term.entries("output").last()).toHaveText("45");
    await expect(annTerm.log).not.toContainText("already running");

    // A program that throws, run with the `run` command from Ben's terminal.
    await setCode(ann, 'raise ValueError("bad value")\n', [ben]);
    await benTerm.command("run");
    for (const term of both)
      await expect(term.entries("error").last()).toContainText("ValueError: bad value");
    await ann.page.screenshot({ path: test.info().outputPath("terminal-runs.png") });

    // help, and an unknown command: the server's answers, for both.
    await benTerm.command("help");
    for (const term of both) {
      await expect(term.entries("input").last()).toHaveText("$ help");
      await expect(term.entries("output").last()).toContainText("Available commands:");
    }
    // Ben drops off; what is said meanwhile reaches him through the history when he is back.
    await ben.page.context().setOffline(true);
    await expect(ben.status).toHaveText("OFFLINE");
    await expect(benTerm.runButton).toBeDisabled();
    await annTerm.command("frobnicate now");
    await expect(annTerm.entries("input").last()).toHaveText("$ frobnicate now");
    await ben.page.context().setOffline(false);
    await expect(ben.status).toHaveText("CONNECTED", { timeout: 15_000 });
    for (const term of both) {
      await expect(term.entries("error").last()).toHaveText(
        "Unknown command: frobnicate. Type 'help' for available commands.",
      );
    }
    await ann.page.screenshot({ path: test.info().outputPath("terminal.png") });

    // A late joiner sees the earlier runs at once.
    const cat = new EditorScreen(await newPage());
    await cat.open(host.sessionId);
    const catTerm = new Terminal(cat.page);
    await expect(catTerm.log).toContainText("hello from ensemble");
    await expect(catTerm.log).toContainText("slow done");
    await expect(catTerm.log).toContainText("45");
    await expect(catTerm.log).toContainText("ValueError: bad value");
    await expect(catTerm.entries("input")).toHaveCount(6);

    // Clear, from Ben's button, clears everyone's terminal.
    await benTerm.panel.getByRole("button", { name: "Clear" }).click();
    for (const term of [...both, catTerm]) await expect(term.log).toHaveText(TERMINAL_EMPTY);
  });

  test("the panel resizes by keyboard and pointer within 100-400 px, closes and reopens, and passes axe", async ({
    page,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const screen = new EditorScreen(page);
    await screen.open(sessionId);
    const term = new Terminal(page);
    const height = async () => (await term.panel.boundingBox())?.height ?? 0;

    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "200");
    expect(await height()).toBe(200);
    await term.resizeHandle.focus();
    await page.keyboard.press("ArrowUp");
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "220");
    await page.keyboard.press("End");
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "400");
    await page.keyboard.press("ArrowUp");
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "400");
    expect(await height()).toBe(400);

    // Dragging far down stops at the 100 px minimum.
    const box = await term.resizeHandle.boundingBox();
    if (!box) throw new Error("no resize handle");
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 200, { steps: 5 });
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "200");
    await page.mouse.move(x, y + 1000, { steps: 5 });
    await page.mouse.up();
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "100");
    expect(await height()).toBe(100);

    await expectNoA11yViolations(page, { exclude: [".monaco-editor"] });

    // With reduced motion, output shows whole at once: no line is ever typed out.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await term.command("help");
    await expect(term.entries("output").last()).toContainText("Available commands:");
    // Read the block that shows the answer: it is a <pre> until xterm.js loads, then xterm's
    // accessibility tree, which is empty for a frame (the last block, read then, was " ").
    const help = term.entries("output").filter({ hasText: "Available commands:" }).last();
    expect(await help.textContent()).toContain("show this help");

    await term.panel.getByRole("button", { name: "Close terminal" }).click();
    await expect(term.panel).toBeHidden();
    const toggle = page.getByRole("button", { name: "Show terminal" });
    await expect(toggle).toBeFocused();
    await toggle.click();
    // Closing hides the panel; the session's terminal is still there when it reopens.
    await expect(term.log).toContainText("show this help");
    await expect(term.resizeHandle).toHaveAttribute("aria-valuenow", "100");
    await expect(page.getByRole("button", { name: "Hide terminal" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
  });

  test("program output shows as a terminal shows it: colours, carriage returns, links to path:line, find", async ({
    page,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const screen = new EditorScreen(page);
    await screen.open(sessionId);
    const term = new Terminal(page);

    // \x5b is "[": the editor would close a typed bracket.
    const code = [
      'console.log("\\x1b\\x5b31mred\\x1b\\x5b0m and plain");',
      'process.stdout.write("progress 10%\\rprogress 100%\\n");',
      'console.log("see src/main.js:2:3 for the bar");',
      "",
    ].join("\n");
    await setCode(screen, code, []);
    await term.runButton.click();
    const output = term.entries("output").last();
    await expect(output).toContainText("red and plain");
    await expect(output).toContainText("progress 100%");
    await expect(output).toContainText("see src/main.js:2:3 for the bar");
    // No escape shows as a symbol, and what the carriage return went back over is gone.
    await expect(term.log).not.toContainText("␛");
    await expect(term.log).not.toContainText("[31m");
    await expect(output).not.toContainText("10%");
    await expect(term.drawnRow("red and plain").getByText("red", { exact: true })).toHaveCSS(
      "color",
      "rgb(248, 113, 113)",
    );
    await expectNoA11yViolations(page, { exclude: [".monaco-editor"] });
    await page.screenshot({ path: test.info().outputPath("terminal-colours.png") });

    // The reference is a link: it opens the file with the caret at line 2, column 3.
    await term.clickDrawn("src/main.js:2:3");
    await expect(page.getByTestId("code-editor")).toHaveAttribute("data-file", "src/main.js");
    await page.keyboard.type("X");
    await expect.poll(async () => (await screen.text()).split("\n")[1]).toMatch(/^prXocess\.stdout/);

    // A selection in the output is copied with Ctrl+C.
    await page.evaluate(() => {
      document.addEventListener("copy", (event) => {
        document.body.dataset.copied = event.clipboardData?.getData("text/plain") ?? "";
      });
    });
    await term.clickDrawn("plain", 2);
    await page.keyboard.press("Control+c");
    await expect(page.locator("body")).toHaveAttribute("data-copied", "plain");

    // Ctrl+F in the panel finds in the output; Escape closes the box and gives focus back.
    await term.log.focus();
    await page.keyboard.press("Control+f");
    await expect(term.findBox).toBeFocused();
    await term.findBox.fill("nowhere to be found");
    await term.findBox.press("Enter");
    await expect(term.panel.getByRole("status")).toHaveText("No matches for “nowhere to be found”");
    await term.findBox.fill("plain");
    await term.findBox.press("Enter");
    await expect(term.panel.getByRole("status")).toHaveText("");
    await expect(term.log.locator(".xterm-selection div").first()).toBeVisible();
    await term.findBox.press("Escape");
    await expect(term.findBox).toBeHidden();
    await expect(term.panel.getByRole("button", { name: "Find" })).toBeFocused();
  });
});
