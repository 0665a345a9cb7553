import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode, Terminal } from "../support/terminal";

test.describe("ending the session for oneself", () => {
  test("a guest ends it with a pull request: refused while nothing changed, then made, then home; the host stays and has the PR", async ({
    page,
    newPage,
    request,
  }) => {
    const account = await createHostedSession(request, "endhost");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    const guest = new EditorScreen(await newPage());
    await host.open(account.sessionId);
    await guest.open(account.sessionId);

    // The starting point is on main, so proposing it unchanged is refused.
    const hostTerminal = new Terminal(page);
    await hostTerminal.command("git add .");
    await hostTerminal.command('git commit -m "Start"');
    await expect(hostTerminal.entries("output").last()).toContainText("Committed");

    const dialog = guest.page.getByRole("dialog", { name: "SESSION ENDING" });
    const create = dialog.getByRole("button", { name: "Create Pull Request" });
    const bottomToasts = guest.page.locator(".Toastify__toast-container--bottom-center");
    await guest.page.getByRole("button", { name: "End Session" }).click();
    await expect(dialog).toContainText("Important:");
    await expect(dialog.getByTestId("end-github-status")).toHaveText("GitHub Status: Not Authenticated");
    await expect(dialog.getByRole("button", { name: "End Without PR" })).toBeEnabled();
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
