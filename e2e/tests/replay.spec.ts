import { expectNoA11yViolations } from "../support/a11y";
import { expect, test } from "../support/fixtures";
import { Replay } from "../support/replay";

test.describe("session replay", () => {
  test("scrubbed to the middle it shows that moment's text exactly, plays to the end, and the host restores it for everyone", async ({
    twoEditors,
  }) => {
    const { account: host, host: ann, guest: ben } = await twoEditors("replayer");
    const annReplay = new Replay(ann.page);
    const benReplay = new Replay(ben.page);

    // Ann and Ben type; the text of that moment is recorded.
    await ann.caretToEndOf(2);
    await ann.type("\nconst ann = 1;");
    await expect.poll(() => ben.text()).toContain("const ann = 1;");
    await ben.caretToEndOf(3);
    await ben.type("\n// ben was here");
    await expect.poll(() => ann.text()).toContain("// ben was here");
    const snapshot = await ann.text();
    expect(await ben.text()).toBe(snapshot);

    // The replay opens at the last stored edit: that moment, with both authors' colours.
    await annReplay.open();
    await expect.poll(() => annReplay.text()).toBe(snapshot);
    const middle = await annReplay.moment();
    await expect(annReplay.panel.getByRole("complementary")).toContainText(host.name);
    await expect(annReplay.panel.getByRole("complementary")).toContainText("Anonymous");
    await expect(annReplay.code.locator(".replay-typed")).toHaveCount(2);
    await expectNoA11yViolations(ann.page, { include: ["[data-testid=replay-panel]"] });
    await annReplay.close();

    // Later typing moves the end on; scrubbed back to the recorded moment, the text is that moment's.
    await ben.caretToEndOf(4);
    await ben.type("\nlet later = 2;");
    await expect.poll(() => ann.text()).toContain("let later = 2;");
    const final = await ann.text();
    await benReplay.open();
    await expect.poll(() => benReplay.text()).toBe(final);
    expect(await benReplay.moment()).toBeGreaterThan(middle);
    await benReplay.scrubTo(middle);
    await expect.poll(() => benReplay.text()).toBe(snapshot);
    // Ben is an editor: restoring is the host's.
    await expect(benReplay.panel.getByRole("button", { name: "Restore this version" })).toHaveCount(0);

    // Played at the fastest speed it reaches the end and the final text.
    await benReplay.panel.getByLabel("Speed").selectOption("50");
    const playLabels = await benReplay.recordPlayLabels();
    await benReplay.play.click();
    await expect.poll(() => benReplay.text(), { timeout: 20_000 }).toBe(final);
    await expect(benReplay.play).toHaveText("Play", { timeout: 20_000 });
    // It showed Pause while it played (for tens of milliseconds at this speed), then Play again.
    expect((await playLabels()).slice(0, 1)).toEqual(["Pause"]);
    expect((await playLabels()).at(-1)).toBe("Play");

    // Ann restores the recorded moment: everyone's files go back to it, as a new edit.
    await annReplay.open();
    await annReplay.scrubTo(middle);
    await expect.poll(() => annReplay.text()).toBe(snapshot);
    await annReplay.panel.getByRole("button", { name: "Restore this version" }).click();
    await annReplay.panel.getByRole("button", { name: "Restore", exact: true }).click();
    await expect(annReplay.panel).toHaveCount(0);
    await expect.poll(() => ben.text()).toBe(snapshot);
    await expect.poll(() => ann.text()).toBe(snapshot);
  });

  test("the open timeline follows new edits live, and the host's restore brings back an empty folder", async ({
    twoEditors,
  }) => {
    const { host: ann, guest: ben } = await twoEditors("replay-live");
    const annReplay = new Replay(ann.page);

    // Ann makes an empty folder; the replay shows it at its end, empty.
    await ann.create("folder", "", "notes");
    await expect(ben.treeItem("notes")).toBeVisible();
    await annReplay.open();
    await expect(annReplay.panel.getByTestId("replay-empty-folder").filter({ hasText: "notes/" })).toHaveText(
      "notes/ (empty)",
    );
    const withFolder = await annReplay.moment();

    // With Ann's panel open, Ben types: her timeline grows, the slider follows the end, and the
    // text shown is Ben's newest without reopening anything.
    await ben.caretToEndOf(2);
    await ben.type("\n// typed while the replay was open");
    await expect.poll(() => annReplay.moment(), { timeout: 15_000 }).toBeGreaterThan(withFolder);
    await expect
      .poll(() => annReplay.text(), { timeout: 15_000 })
      .toContain("// typed while the replay was open");
    await annReplay.close();

    // Ben deletes the folder; Ann restores the moment it was there: it comes back, empty, for both.
    await ben.treeItem("notes").locator(":scope > .tree-row").click({ button: "right" });
    await ben.page.getByRole("menuitem", { name: "Delete" }).click();
    await ben.page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(ann.treeItem("notes")).toHaveCount(0);
    await annReplay.open();
    await annReplay.scrubTo(withFolder);
    await expect(annReplay.panel.getByTestId("replay-empty-folder").filter({ hasText: "notes/" })).toHaveText(
      "notes/ (empty)",
    );
    await annReplay.panel.getByRole("button", { name: "Restore this version" }).click();
    await annReplay.panel.getByRole("button", { name: "Restore", exact: true }).click();
    await expect(annReplay.panel).toHaveCount(0);
    await expect(ben.treeItem("notes")).toBeVisible();
    await expect(ann.treeItem("notes")).toBeVisible();
  });
});
