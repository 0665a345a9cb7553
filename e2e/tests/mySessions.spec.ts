import { expectNoA11yViolations } from "../support/a11y";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";
import { Replay } from "../support/replay";

test("My sessions lists the sessions I host and joined; opens one; the host deletes one and its guest goes home", async ({
  page,
  newPage,
  request,
}) => {
  // Three editor loads in two contexts and two axe passes: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  // I host one session and join another user's.
  const me = await createHostedSession(request, "mine");
  const other = await createHostedSession(request, "theirs");
  const myTitle = `e2e ${me.name}`;
  const theirTitle = `e2e ${other.name}`;
  await signInContext(page.context(), me);
  await new EditorScreen(page).open(other.sessionId);

  // Reached from the account menu.
  await page.goto("/");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "My sessions" }).click();
  await expect(page).toHaveURL(/\/my-sessions$/);
  await expect(page.getByRole("heading", { level: 1, name: "My sessions" })).toBeVisible();

  const rows = page.getByTestId("my-session-row");
  await expect(rows).toHaveCount(2);
  const mine = rows.filter({ hasText: myTitle });
  const theirs = rows.filter({ hasText: theirTitle });
  // The most recently active first: I joined theirs after mine was made.
  await expect(rows.first()).toContainText(theirTitle);
  await expect(mine.getByRole("cell").nth(0)).toHaveText("Host");
  await expect(mine.getByRole("cell").nth(1)).toHaveText("1 person");
  await expect(mine).toContainText("Live");
  await expect(theirs.getByRole("cell").nth(0)).toHaveText("Editor");
  await expect(theirs.getByRole("cell").nth(1)).toHaveText("2 people");
  // Only the host is offered End and Delete.
  await expect(mine.getByRole("button", { name: `Delete ${myTitle}` })).toBeVisible();
  await expect(mine.getByRole("button", { name: `End ${myTitle}` })).toBeVisible();
  await expect(theirs.getByRole("button")).toHaveCount(0);
  await expectNoA11yViolations(page);

  // Opening one opens the editor on it.
  await theirs.getByRole("link", { name: `Open: ${theirTitle}` }).click();
  await expect(page).toHaveURL(new RegExp(`/code-editor-dashboard/${other.sessionId}$`));
  await new EditorScreen(page).waitUntilLive();

  // A guest is in my session when I delete it.
  const guest = new EditorScreen(await newPage());
  await guest.open(me.sessionId);

  // Also reached from the account page.
  await page.goto("/account");
  await page.getByRole("link", { name: "My sessions" }).click();
  await expect(page).toHaveURL(/\/my-sessions$/);
  await mine.getByRole("button", { name: `Delete ${myTitle}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(dialog).toContainText(myTitle);
  await expectNoA11yViolations(page);
  // Cancel keeps it.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);
  expect((await request.get(`/api/session/${me.sessionId}`)).status()).toBe(200);

  await mine.getByRole("button", { name: `Delete ${myTitle}` }).click();
  await dialog.getByRole("button", { name: "Delete Session" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Session deleted", { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(theirTitle);
  expect((await request.get(`/api/session/${me.sessionId}`)).status()).toBe(404);

  // The guest in it is sent home, told why.
  await expect(guest.page).toHaveURL(/\/$/);
  await expect(guest.page.getByText("The host deleted this session.")).toBeVisible();
});

test("the host ends a session from My sessions; an ended one opens on its replay", async ({
  page,
  request,
}) => {
  const me = await createHostedSession(request, "ender");
  const title = `e2e ${me.name}`;
  await signInContext(page.context(), me);
  await page.goto("/my-sessions");
  const row = page.getByTestId("my-session-row").filter({ hasText: title });
  await expect(row).toContainText("Live");

  await row.getByRole("button", { name: `End ${title}` }).click();
  const dialog = page.getByRole("dialog", { name: "End this session?" });
  await dialog.getByRole("button", { name: "End Session" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Ended");
  await expect(row.getByRole("button", { name: `End ${title}` })).toHaveCount(0);

  await row.getByRole("link", { name: `Open replay: ${title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/code-editor-dashboard/${me.sessionId}$`));
  await expect(new Replay(page).panel).toBeVisible();
  await expect(page.getByRole("button", { name: "Reopen session" })).toBeVisible();
});
