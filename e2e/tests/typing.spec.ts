import { createHostedSession, expectConverged, openThree } from "../support/editor";
import { expect, test } from "../support/fixtures";

const LINE_2 = 'console.log("Hello, world!");';
const WORD_LENGTH = 4;

/** Six words per person, all four characters long: `A0q ` … `A5q `, `B0q ` …, `C0q ` …. */
function wordsOf(letter: string): string[] {
  return [0, 1, 2, 3, 4, 5].map((n) => `${letter}${n}q `);
}

test.describe("typing together (DESIGN.md decision 12)", () => {
  test("three users typing at the same caret at the same moment each keep their words whole", async ({
    page,
    newPage,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const screens = [...(await openThree(page, newPage, sessionId))];
    const start = await screens[0]?.text();
    expect(start?.split("\n")[1]).toBe(LINE_2);

    const typed = ["A", "B", "C"].map(wordsOf);
    for (const screen of screens) await screen.caretToEndOf(2);
    await Promise.all(screens.map((screen, i) => screen.type(typed[i]?.join("") ?? "", 30)));

    const keystrokes = typed.flat().join("").length;
    const text = await expectConverged(screens, (t) => t.length === (start?.length ?? 0) + keystrokes);
    const line = text.split("\n")[1] ?? "";
    expect(line.startsWith(LINE_2), line).toBe(true);
    const region = line.slice(LINE_2.length);
    expect(text).toBe((start ?? "").replace(LINE_2, line));

    // Letter-by-letter interleaving would leave chunks such as "AB0q" that are no one's word.
    const chunks = region.match(new RegExp(`.{1,${WORD_LENGTH}}`, "gs")) ?? [];
    expect(chunks.toSorted(), region).toEqual(typed.flat().toSorted());
    // Stronger still: a caret stays with its owner's run, so each person's input is one run.
    for (const words of typed) expect(region, region).toContain(words.join(""));
    // The binding still draws the two other carets on every screen.
    for (const screen of screens) await expect(screen.page.locator(".yRemoteSelectionHead")).toHaveCount(2);
  });
});
