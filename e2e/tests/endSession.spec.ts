import { EditorScreen } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { hostAndGuest, setCode } from "../support/terminal";

test.describe("ending the session for oneself", () => {
  test("a guest ends it with a pull request: refused while nothing changed, then made, then home; the host stays and has the PR", async ({
    page,
    twoEditors,
  }) => {
    // The starting point is on main, so proposing it unchanged is refused.
    const { account, host, guest } = await hostAndGuest(twoEditors, "endhost");

    const dialog = guest.page.getByRole("dialog", { name: "SESSION ENDING" });
    const create = dialog.getByRole("button", { name: "Create Pull Request" });
    const bottomToasts = guest.page.locator(".Toastify__toast-container--bottom-center");
    await guest.page.getByRole("button", { name: "End Session" }).click();
    await expect(dialog).toContainText("Important:");
    await expect(dialog.getByTestId("end-github-status")).toHaveText("GitHub Status: Not Authenticated");
    await expect(dialog.getByRole("button", { name: "End Without PR" })).toBeEnabled();
    // Not authenticated: GitHub Login beside Create Pull Request; a guest is told the login is the host's.
    await dialog.getByRole("button", { name: "GitHub Login" }).click();
    await expect(bottomToasts).toContainText("GitHub login is the host's");
    await expect(dialog).toBeVisible();
    await expect(guest.page).toHaveURL(new RegExp(`/code-editor-dashboard/${account.sessionId}$`));
    await create.click();
    await expect(bottomToasts).toContainText("There is nothing to propose");
    await expect(dialog).toBeVisible();
    await expect(create).toBeEnabled();
    await guest.page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // With a change, the PR is made for the host's review and the guest goes home 3 s later.
    await setCode(guest, 'console.log("bye from the guest");\n', [host]);
    await guest.page.getByRole("button", { name: "End Session" }).click();
    await create.click();
    await expect(bottomToasts).toContainText("Your pull request is now waiting for review by the host.");
    await expect(dialog).toBeVisible();
    await expect(guest.page).toHaveURL(/\/$/, { timeout: 10_000 });
    await expect(bottomToasts).toContainText("Session ended Successfully");

    const pending = page
      .getByRole("region", { name: "Pull requests" })
      .locator('[data-pr-id][data-status="pending"]');
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText(`Session ${account.sessionId} - `);
    await expect(page.getByTestId("pr-pending-badge")).toHaveText("1");
    await expect(page).toHaveURL(new RegExp(`/code-editor-dashboard/${account.sessionId}$`));
    await expect(page.getByRole("dialog", { name: "SESSION ENDING" })).toHaveCount(0);
  });
});

test.describe("ending the session for everyone", () => {
  test("the host ends it: a guest keeps their work as a PR, a late visitor finds it read-only, the host reopens it", async ({
    page,
    newPage,
    twoEditors,
  }) => {
    const { account, host, guest } = await hostAndGuest(twoEditors, "archivehost");
    const finalCode = 'console.log("the last word");\n';
    await setCode(guest, finalCode, [host]);

    await page.getByRole("button", { name: "End Session" }).click();
    await page
      .getByRole("dialog", { name: "Confirm Session Termination" })
      .getByRole("button", { name: "End Session" })
      .click();
    await expect(page).toHaveURL(/\/$/);

    // The guest is offered the dialog and keeps their work as a pull request from it.
    const dialog = guest.page.getByRole("dialog", { name: "SESSION ENDING" });
    await expect(dialog).toContainText("The session host is ending this session.");
    await dialog.getByRole("button", { name: "Create Pull Request" }).click();
    await expect(guest.page.locator(".Toastify__toast-container--bottom-center")).toContainText(
      "Your pull request is now waiting for review by the host.",
    );
    await expect(guest.page).toHaveURL(/\/$/, { timeout: 10_000 });

    // A late visitor reads the code and the PR; nothing can be typed, run or ended.
    const visitor = await newPage();
    await visitor.goto(`/code-editor-dashboard/${account.sessionId}`);
    const visitorScreen = new EditorScreen(visitor);
    const banner = visitor.getByTestId("session-ended-banner");
    await expect(banner).toContainText("This session has ended");
    await expect(banner.getByRole("button", { name: "Reopen session" })).toHaveCount(0);
    await expect.poll(() => visitorScreen.text()).toBe(finalCode);
    await expect(visitor.locator(".monaco-editor .view-lines")).toContainText("the last word");
    await visitor.locator(".monaco-editor .view-lines").click();
    await visitor.keyboard.type("vandal");
    await expect(visitor.locator(".monaco-editor")).toContainText("Cannot edit in read-only editor");
    expect(await visitorScreen.text()).toBe(finalCode);
    await expect(visitor.getByTestId("run-code")).toBeDisabled();
    await expect(visitor.getByRole("button", { name: "End Session" })).toHaveCount(0);
    await expect(visitor.getByRole("region", { name: "Pull requests" }).locator("[data-pr-id]")).toHaveCount(
      1,
    );

    // The host comes back and reopens it: the visitor can type again at once.
    await page.goto(`/code-editor-dashboard/${account.sessionId}`);
    await page.getByTestId("session-ended-banner").getByRole("button", { name: "Reopen session" }).click();
    await expect(page.getByText("Session reopened: everyone can edit again.")).toBeVisible();
    await expect(page.getByTestId("session-ended-banner")).toHaveCount(0);
    await expect(banner).toHaveCount(0);
    await visitorScreen.waitUntilLive();
    await setCode(visitorScreen, "// reopened\n", [host]);
  });
});
