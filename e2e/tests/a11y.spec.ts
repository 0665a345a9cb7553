import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, newUser, test } from "../support/fixtures";
import { registerViaApi, signIn } from "../support/flows";

async function seriousViolations(page: Page) {
  // A dialog fading in has low contrast for 0.2 s: measure what people see once it settles.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const PUBLIC_PAGES = [
  "/",
  "/signin",
  "/signup",
  "/documentation",
  "/introduction",
  "/blogs",
  "/About",
  "/account",
];

for (const path of PUBLIC_PAGES) {
  test(`no serious accessibility violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("no serious accessibility violation in the dialogs and signed-in pages", async ({ page, request }) => {
  const user = newUser();
  await registerViaApi(request, user);
  await signIn(page, user.email, user.password, user.name);
  await page.getByRole("button", { name: "Start Building" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Collaborate" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await page.getByTestId("user-menu").click();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto("/account");
  await page.getByRole("button", { name: "Edit Info" }).click();
  expect(await seriousViolations(page)).toEqual([]);
});

test("dialogs keep focus inside and give it back on Escape", async ({ page }) => {
  await page.goto("/");
  const opener = page.getByRole("button", { name: "Collaborate" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Join Existing Session" });
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog.getByLabel("Session ID")).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // A press inside the dialog keeps it; a press on the backdrop closes it.
  await opener.click();
  await dialog.getByText("Session ID").click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(4, 4);
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
