import type { Page } from "@playwright/test";
import type { EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode, twoAtTerminals } from "../support/terminal";

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
  expect.poll(() => squiggledLines(screen.page), { timeout: 15_000 }).toEqual(lines);

test.describe("errors on the lines", () => {
  test("a traceback marks its line in both editors, and a fixed run clears the marks for both", async ({
    twoEditors,
  }) => {
    const { ann, ben, annTerm, benTerm } = await twoAtTerminals(twoEditors, "markers");
    await ben.page.getByLabel("Language").selectOption("python");
    for (const screen of [ann, ben]) await expect.poll(() => screen.language()).toBe("python");
    await ann.waitUntilLive();

    await setCode(ann, 'print("start")\nvalue = 1\nprint(undefined_name)\n', [ben]);
    await annTerm.runButton.click();
    for (const term of [annTerm, benTerm]) {
      await expect(term.entries("error").last()).toContainText(
        "NameError: name 'undefined_name' is not defined",
      );
    }
    for (const screen of [ann, ben]) await showsMarksOn(screen, [3]);
    await ann.page.screenshot({ path: test.info().outputPath("marked.png") });

    // The message is the marker's hover.
    await ben.page.locator(".squiggly-error").first().hover({ force: true });
    await expect(
      ben.page
        .locator(".monaco-hover")
        .filter({ hasText: "NameError: name 'undefined_name' is not defined" }),
    ).toBeVisible();

    // And from the keyboard: F8 goes to the error and reads it out.
    await ben.page.locator(".monaco-editor .view-lines").click();
    await ben.page.keyboard.press("F8");
    await expect(ben.page.locator(".marker-widget")).toContainText(
      "NameError: name 'undefined_name' is not defined",
    );
    await ben.page.keyboard.press("Escape");

    // A reload (as a late joiner) marks the same line from what the server kept.
    await ben.page.reload();
    await ben.waitUntilLive();
    await expect.poll(() => ben.activeFile()).toBe("src/main.py");
    await showsMarksOn(ben, [3]);

    // Fixed and run again (by Ben, from his terminal): the marks go for both.
    await setCode(ann, 'print("fixed")\n', [ben]);
    await benTerm.command("run");
    for (const term of [annTerm, benTerm]) await expect(term.entries("output").last()).toHaveText("fixed");
    for (const screen of [ann, ben]) await showsMarksOn(screen, []);
  });

  test("a C compile error is marked in both editors; fixed, the output reaches both", async ({
    twoEditors,
  }) => {
    const { ann, ben, annTerm, benTerm } = await twoAtTerminals(twoEditors, "markers-c");
    // Once the server offers C (the compiled languages' branch); until then there is no C to compile.
    const offersC = await ben.page.getByLabel("Language").locator('option[value="c"]').count();
    test.skip(offersC === 0, "this server does not offer C");
    await ben.page.getByLabel("Language").selectOption("c");
    for (const screen of [ann, ben]) await expect.poll(() => screen.language()).toBe("c");
    await ann.waitUntilLive();

    // A statement per line at the top level: Monaco indents what follows a `{` as it is typed.
    await setCode(
      ann,
      '#include <stdio.h>\nint x = 1;\nint main(void) { printf("%d\\n", missing); return x; }\n',
      [ben],
    );
    await annTerm.runButton.click();
    for (const term of [annTerm, benTerm]) await expect(term.log).toContainText("undeclared");
    for (const screen of [ann, ben]) await showsMarksOn(screen, [3]);
    await ann.page.screenshot({ path: test.info().outputPath("c-marked.png") });

    await setCode(ann, '#include <stdio.h>\nint x = 1;\nint main(void) { printf("fixed\\n"); return 0; }\n', [
      ben,
    ]);
    await benTerm.runButton.click();
    for (const term of [annTerm, benTerm]) await expect(term.log).toContainText("fixed");
    for (const screen of [ann, ben]) await showsMarksOn(screen, []);
  });

  test("a Java compile error is marked in both editors; fixed, the class runs for both", async ({
    twoEditors,
  }) => {
    const { ann, ben, annTerm, benTerm } = await twoAtTerminals(twoEditors, "markers-java");
    await ben.page.getByLabel("Language").selectOption("java");
    for (const screen of [ann, ben]) {
      await expect.poll(() => screen.language()).toBe("java");
      await expect.poll(() => screen.activeFile()).toBe("src/Main.java");
    }
    await ann.waitUntilLive();

    // The class on one line: Monaco would indent what follows a `{` as it is typed.
    const program = (statement: string) =>
      `// Ensemble's Java walk\npublic class Main { public static void main(String[] args) { ${statement} } }\n`;
    await setCode(ann, program("System.out.println(missing);"), [ben]);
    await benTerm.runButton.click();
    // A JVM's first start reads the JDK from disk: seconds on a busy machine.
    for (const term of [annTerm, benTerm])
      await expect(term.log).toContainText("cannot find symbol", { timeout: 30_000 });
    for (const screen of [ann, ben]) await showsMarksOn(screen, [2]);

    await setCode(ann, program('System.out.println("fixed in Java");'), [ben]);
    await annTerm.runButton.click();
    for (const term of [annTerm, benTerm])
      await expect(term.log).toContainText("fixed in Java", { timeout: 30_000 });
    for (const screen of [ann, ben]) await showsMarksOn(screen, []);
  });
});
