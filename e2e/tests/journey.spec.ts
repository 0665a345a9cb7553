import { expect, newUser, test } from "../support/fixtures";
import { logOut, registerViaApi, signIn, signUp } from "../support/flows";

test("two users: sign up, sign in, create and join a session, edit the account, log out", async ({
  page,
  newPage,
  request,
}) => {
  const alice = newUser("alice");
  await signUp(page, alice);
  await expect(page.getByText("Registration successful!").first()).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);

  await signIn(page, alice.email, alice.password, alice.name);
  await expect(page.getByTestId("user-menu")).toHaveText(new RegExp(alice.name));

  await page.getByRole("button", { name: "Start Building" }).click();
  const create = page.getByRole("dialog", { name: "Create New Session" });
  await create.getByLabel("Session Name").fill("Pairing on e2e");
  await create.getByRole("button", { name: "Create Session" }).click();
  await expect(page).toHaveURL(/\/code-editor-dashboard\/[A-Za-z0-9_-]{24}$/);
  const sessionId = page.url().split("/").pop() ?? "";
  await expect(page.getByText(sessionId).first()).toBeVisible();
  // The status bar's clock shows the time to the second, and ticks.
  const clock = page.locator(".status-clock");
  const shown = await clock.textContent();
  expect(shown).toMatch(/\d{1,2}:\d{2}:\d{2}/);
  // A second's tick; the editor's load can hold the page's timers for a few seconds on a busy machine.
  await expect(clock).not.toHaveText(shown ?? "", { timeout: 15_000 });

  const bobPage = await newPage();
  const bob = newUser("bob");
  await registerViaApi(request, bob);
  await signIn(bobPage, bob.name, bob.password, bob.name);
  await bobPage.getByRole("button", { name: "Collaborate" }).click();
  const join = bobPage.getByRole("dialog", { name: "Join Existing Session" });
  await join.getByLabel("Session ID").fill(`  ${sessionId}  `);
  await join.getByRole("button", { name: "Join Session" }).click();
  await expect(bobPage.getByText("Joined session successfully")).toBeVisible();
  await expect(bobPage).toHaveURL(new RegExp(`/code-editor-dashboard/${sessionId}$`));

  // Who takes part is shown to participants only; the link alone tells the title.
  const anonymous = await request.get(`/api/session/${sessionId}`);
  expect(await anonymous.json()).toEqual({ session_id: sessionId, title: "Pairing on e2e" });
  const bobToken = await bobPage.evaluate(() => localStorage.getItem("token"));
  const session = await request.get(`/api/session/${sessionId}`, {
    headers: { authorization: `Bearer ${bobToken}` },
  });
  const participants = (await session.json()).participants as { name: string; role: string }[];
  expect(participants.map((p) => [p.name, p.role])).toEqual([
    [alice.name, "host"],
    [bob.name, "editor"],
  ]);

  await page.goto("/account");
  await expect(page.getByText(alice.email)).toBeVisible();
  await page.getByRole("button", { name: "Edit Info" }).click();
  const renamed = `${alice.name}_x`;
  await page.getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Profile updated successfully")).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveText(new RegExp(renamed));
  await page.reload();
  await expect(page.getByTestId("user-menu")).toHaveText(new RegExp(renamed));

  await logOut(page);
  await logOut(bobPage);
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
});
