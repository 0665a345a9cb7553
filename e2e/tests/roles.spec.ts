import { expectNoA11yViolations } from "../support/a11y";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { setCode } from "../support/terminal";

test.describe("roles", () => {
  test("a viewer by the view link cannot type; the host promotes them and they type", async ({
    page,
    newPage,
    request,
  }) => {
    const account = await createHostedSession(request, "roleshost");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    await host.open(account.sessionId);
    const starter = await host.text();

    // The host's two links; the view link is the one given out.
    const access = page.getByTestId("session-access");
    await access.getByRole("button", { name: "Share links" }).click();
    const viewLink = await access.getByTestId("share-viewKey").inputValue();
    const editLink = await access.getByTestId("share-editKey").inputValue();
    expect(viewLink).toContain(`/code-editor-dashboard/${account.sessionId}?key=`);
    expect(viewLink).not.toBe(editLink);

    const viewer = new EditorScreen(await newPage());
    await viewer.page.goto(viewLink);
    // Live but not editable (the hook's `ready` means editable): the text arrives, the marker shows.
    const marker = viewer.page.getByTestId("view-only");
    await expect(marker).toContainText("View only");
    await expect.poll(() => viewer.text()).toBe(starter);
    await expect(viewer.page.locator(".monaco-editor .view-lines")).toContainText("Hello, world!");
    await viewer.page.locator(".monaco-editor .view-lines").click();
    await viewer.page.keyboard.type("vandal");
    await expect(viewer.page.locator(".monaco-editor")).toContainText("Cannot edit in read-only editor");
    expect(await viewer.text()).toBe(starter);
    expect(await host.text()).toBe(starter);
    await expect(viewer.page.getByTestId("run-code")).toBeDisabled();
    await expect(viewer.page.getByRole("button", { name: "New file" })).toBeDisabled();
    await expect(viewer.page.getByRole("button", { name: "New PR" })).toBeDisabled();
    await expect(viewer.page.getByRole("combobox", { name: "Language" })).toBeDisabled();

    // The host sees them as a viewer and lets them edit, live: no reload on either side.
    const participants = page.getByTestId("participants");
    await expect(participants.locator(".participant", { hasText: "Anonymous" })).toContainText("Viewer");
    await participants.getByRole("button", { name: "Manage Anonymous" }).click();
    await expectNoA11yViolations(page, {
      include: ['[data-testid="session-access"]', '[data-testid="participants"]'],
    });
    await expectNoA11yViolations(viewer.page, { include: ['[data-testid="view-only"]'] });
    await participants.getByRole("combobox", { name: "Role of Anonymous" }).selectOption("editor");
    await expect(marker).toHaveCount(0);
    await expect(viewer.page.getByText("The host let you edit.")).toBeVisible();
    await expect(viewer.page.getByTestId("run-code")).toBeEnabled();
    await viewer.waitUntilLive();
    await setCode(viewer, 'console.log("promoted");\n', [host]);
  });

  test("the host locks the session; newcomers wait in the lobby, one is admitted, one refused", async ({
    page,
    newPage,
    request,
  }) => {
    const account = await createHostedSession(request, "lobbyhost");
    await signInContext(page.context(), account);
    const host = new EditorScreen(page);
    await host.open(account.sessionId);
    const access = page.getByTestId("session-access");
    const lock = access.getByRole("button", { name: "Lock session" });
    await lock.click();
    await expect(access.getByRole("button", { name: "Unlock session" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    const newcomer = new EditorScreen(await newPage());
    await newcomer.page.goto(`/code-editor-dashboard/${account.sessionId}`);
    const lobby = newcomer.page.getByTestId("lobby");
    await expect(lobby).toContainText("Waiting for the host");
    // Nothing of the session reaches someone waiting.
    expect(await newcomer.text()).toBe("");

    await expect(access.getByTestId("lobby-count")).toHaveText("1 waiting");
    await expectNoA11yViolations(newcomer.page, { include: ["main"] });
    await expectNoA11yViolations(page, { include: ['[data-testid="session-access"]'] });
    await access.getByRole("button", { name: "Admit Anonymous" }).click();
    await expect(lobby).toHaveCount(0);
    await newcomer.waitUntilLive();
    await expect(access.getByTestId("lobby-count")).toHaveCount(0);
    await setCode(newcomer, 'console.log("let in");\n', [host]);

    const refused = await newPage();
    await refused.goto(`/code-editor-dashboard/${account.sessionId}`);
    await expect(refused.getByTestId("lobby")).toContainText("Waiting for the host");
    await access.getByRole("button", { name: "Refuse Anonymous" }).click();
    await expect(refused.getByTestId("lobby")).toContainText("You were not let in");
    await expect(refused.locator(".monaco-editor")).toHaveCount(0);
  });
});

test("the host hands the host role over, and removes a participant, who is told why", async ({
  page,
  newPage,
  request,
}) => {
  const account = await createHostedSession(request, "handover");
  await signInContext(page.context(), account);
  const host = new EditorScreen(page);
  await host.open(account.sessionId);
  const heirAccount = await createHostedSession(request, "heir");
  const heirPage = await newPage();
  await signInContext(heirPage.context(), heirAccount);
  const heir = new EditorScreen(heirPage);
  await heir.open(account.sessionId);
  const guest = new EditorScreen(await newPage());
  await guest.open(account.sessionId);

  const participants = page.getByTestId("participants");
  await participants.getByRole("button", { name: "Manage Anonymous" }).click();
  await participants.getByRole("button", { name: "Remove" }).click();
  await expect(guest.page.getByText("The host removed you from this session.")).toBeVisible();
  await expect(participants.locator(".participant", { hasText: "Anonymous" })).toHaveCount(0);

  await participants.getByRole("button", { name: `Manage ${heirAccount.name}` }).click();
  await participants.getByRole("button", { name: "Make host" }).click();
  await expect(heirPage.getByText("You are now the host of this session.")).toBeVisible();
  await expect(heirPage.getByTestId("session-access")).toBeVisible();
  await expect(page.getByTestId("session-access")).toHaveCount(0);
  await expect(
    heirPage.getByTestId("participants").locator(".participant", { hasText: account.name }),
  ).not.toContainText("Host");
  // The old host still edits, as an editor.
  await setCode(host, 'console.log("still editing");\n', [heir]);
});
