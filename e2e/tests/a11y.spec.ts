import { expectNoA11yViolations } from "../support/a11y";
import { expect, newUser, test } from "../support/fixtures";
import { registerViaApi, signIn } from "../support/flows";

const PUBLIC_PAGES = [
  "/",
  "/signin",
  "/signup",
  "/documentation",
  "/introduction",
  "/blogs",
  "/About",
  "/account",
  "/my-sessions",
];

for (const path of PUBLIC_PAGES) {
  test(`no serious accessibility violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    await expectNoA11yViolations(page);
  });
}

test("no serious accessibility violation in the dialogs and signed-in pages", async ({ page, request }) => {
  const user = newUser();
  await registerViaApi(request, user);
  await signIn(page, user.email, user.password, user.name);
  await page.getByRole("button", { name: "Start Building" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoA11yViolations(page);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Collaborate" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoA11yViolations(page);
  await page.keyboard.press("Escape");
  await page.getByTestId("user-menu").click();
  await expectNoA11yViolations(page);
  await page.goto("/account");
  await page.getByRole("button", { name: "Edit Info" }).click();
  await expectNoA11yViolations(page);
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
