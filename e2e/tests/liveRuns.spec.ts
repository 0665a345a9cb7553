import { expectNoA11yViolations } from "../support/a11y";
import { expect, test } from "../support/fixtures";
import { setCode, twoAtTerminals } from "../support/terminal";

test.describe("live runs", () => {
  test("two users watch a count as it happens, answer input() prompts (the starter, then the other once allowed), and Stop a busy loop for both", async ({
    twoEditors,
  }) => {
    const { ann, ben, annTerm, benTerm } = await twoAtTerminals(twoEditors, "live");
    const both = [annTerm, benTerm];

    // A count, one line every 400 ms: both see the first lines while it still runs.
    // One line each: the editor would indent what follows a brace or a colon.
    await setCode(
      ann,
      'let i = 0; const timer = setInterval(() => { console.log("count " + ++i); if (i === 8) clearInterval(timer); }, 400);\n',
      [ben],
    );
    await annTerm.runButton.click();
    for (const term of both) {
      await expect(term.runButton).toHaveText("Stop");
      await expect(term.log).toContainText("count 2");
    }
    await expect(benTerm.log).not.toContainText("count 8");
    for (const term of both) {
      await expect(term.log).toContainText("count 8");
      await expect(term.runButton).toHaveText("Run Code");
    }

    // Python's input(): Ben runs and answers; his prompt goes to the program, Ann's stays commands.
    await ben.page.getByLabel("Language").selectOption("python");
    for (const screen of [ann, ben]) await expect.poll(() => screen.language()).toBe("python");
    await ann.waitUntilLive();
    await setCode(ann, "name = input('name? ')\nprint('hello ' + name)\n", [ben]);
    await benTerm.runButton.click();
    for (const term of both) await expect(term.log).toContainText("name?");
    await expect(benTerm.input).toHaveAttribute("data-mode", "program");
    await expect(annTerm.input).toHaveAttribute("data-mode", "command");
    // The starter's controls while the program waits (Stop, Let everyone type, the program prompt) pass axe.
    await expect(ben.page.getByLabel("Let everyone type")).not.toBeChecked();
    await expectNoA11yViolations(ben.page, { exclude: [".monaco-editor"] });
    await benTerm.input.fill("Ada");
    await benTerm.input.press("Enter");
    for (const term of both) {
      await expect(term.entries("input").last()).toHaveText("Ada");
      await expect(term.entries("output").last()).toHaveText("hello Ada");
      await expect(term.runButton).toHaveText("Run Code");
    }
    await expect(benTerm.input).toHaveAttribute("data-mode", "command");
    await ann.page.screenshot({ path: test.info().outputPath("live-input.png") });

    // Ann runs it and lets everyone type: Ben's prompt goes to her program, and he answers.
    await annTerm.runButton.click();
    for (const term of both) await expect(term.entries("output").last()).toHaveText("name?");
    await expect(benTerm.input).toHaveAttribute("data-mode", "command");
    // The box shows the server's answer, not the click: check() would fail on a slow round trip.
    const everyone = ann.page.getByLabel("Let everyone type");
    await everyone.click();
    await expect(everyone).toBeChecked();
    await expect(benTerm.input).toHaveAttribute("data-mode", "program");
    await benTerm.input.fill("Ben");
    await benTerm.input.press("Enter");
    for (const term of both) await expect(term.entries("output").last()).toHaveText("hello Ben");

    // A busy loop: Ben stops it with the Stop button; both see who stopped it.
    await setCode(ann, "print('spinning', flush=True)\nwhile True: pass\n", [ben]);
    await annTerm.runButton.click();
    for (const term of both) await expect(term.log).toContainText("spinning");
    await benTerm.runButton.click();
    for (const term of both) {
      await expect(term.lastLine("error")).toHaveText(/^Stopped by .+\.$/);
      await expect(term.runButton).toHaveText("Run Code");
    }

    // Ctrl+C in the terminal stops a run too.
    await annTerm.runButton.click();
    await expect(annTerm.entries("output").last()).toHaveText("spinning");
    await expect(annTerm.runButton).toHaveText("Stop");
    await annTerm.input.focus();
    await ann.page.keyboard.press("Control+c");
    for (const term of both) await expect(term.runButton).toHaveText("Run Code");
    await expect(benTerm.log).toContainText("KeyboardInterrupt");
  });
});
