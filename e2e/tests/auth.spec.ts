import { expect, newUser, test } from "../support/fixtures";
import { registerViaApi, signIn, signUp } from "../support/flows";

test.describe("sign-up", () => {
  test("checks fields in the spec's order and sends nothing until they pass", async ({ page }) => {
    let registerCalls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/auth/register")) registerCalls += 1;
    });
    const user = newUser();
    await signUp(page, { ...user, name: "  " }, "different");
    await expect(page.getByText("Passwords do not match").first()).toBeVisible();
    await signUp(page, { ...user, name: "   " });
    await expect(page.getByText("Username is required").first()).toBeVisible();
    await signUp(page, { ...user, email: "" });
    await expect(page.getByText("Email is required").first()).toBeVisible();
    expect(registerCalls).toBe(0);
  });

  test("shows the server's message when the email is taken", async ({ page, request }) => {
    const user = newUser();
    await registerViaApi(request, user);
    await signUp(page, { ...newUser(), email: user.email });
    await expect(page.getByText("Email is already registered").first()).toBeVisible();
    await expect(page.getByText("Registration failed. Please try again.")).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });
});

test.describe("sign-in", () => {
  test("asks for both fields before sending", async ({ page }) => {
    await page.goto("/signin");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Please fill in all fields")).toBeVisible();
  });

  test("shows a wrong password inline and as a toast", async ({ page, request }) => {
    const user = newUser();
    await registerViaApi(request, user);
    await page.goto("/signin");
    await page.getByLabel("Email/Username").fill(user.name);
    await page.getByLabel("Password").fill("wrong");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Invalid email/username or password")).toHaveCount(2);
  });

  test("toasts our message for the error query parameter, never its text, and redirects a signed-in visitor away", async ({
    page,
    request,
  }) => {
    await page.goto("/signin?error=state_mismatch");
    await expect(
      page.getByText("GitHub login expired or was tampered with. Please try again."),
    ).toBeVisible();
    await page.goto("/signin?error=Your%20account%20is%20suspended%2C%20call%20us");
    await expect(page.getByText("Authentication failed")).toBeVisible();
    await expect(page.getByText(/suspended/)).toHaveCount(0);
    const user = newUser();
    await registerViaApi(request, user);
    await signIn(page, user.email, user.password, user.name);
    await page.goto("/signin");
    await expect(page).toHaveURL(/\/$/);
  });

  test("an invalid stored token forces a logout", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => {
      localStorage.setItem("token", "garbage");
      localStorage.removeItem("user");
    });
    await page.reload();
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  });
});

test.describe("sessions from the landing page", () => {
  test("join needs a login and a non-empty id; an unknown id gets the server's message", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Collaborate" }).click();
    const join = page.getByRole("dialog", { name: "Join Existing Session" });
    await join.getByLabel("Session ID").fill("demo-session");
    await join.getByRole("button", { name: "Join Session" }).click();
    await expect(page.getByText("You must be logged in to join a session!")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(join).toBeHidden();

    const user = newUser();
    await registerViaApi(request, user);
    await signIn(page, user.email, user.password, user.name);
    await page.getByRole("button", { name: "Collaborate" }).click();
    await join.getByRole("button", { name: "Join Session" }).click();
    await expect(page.getByText("Please enter a valid session ID!")).toBeVisible();
    await join.getByLabel("Session ID").fill("no-such-session");
    await join.getByRole("button", { name: "Join Session" }).click();
    await expect(page.getByText("Session not found")).toBeVisible();
  });

  test("create needs a login", async ({ page }) => {
    await page.goto("/");
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Start Building" }).click();
    await page.getByRole("dialog", { name: "Create New Session" }).getByLabel("Session Name").fill("x");
    await page.getByRole("button", { name: "Create Session" }).click();
    await expect.poll(() => alerts).toEqual(["You must be logged in to create a session!"]);
  });

  test("shows the Session Link after creating", async ({ page, request }) => {
    const user = newUser();
    await registerViaApi(request, user);
    await signIn(page, user.email, user.password, user.name);
    await page.getByRole("button", { name: "Start Building" }).click();
    await page.getByLabel("Session Name").fill("linked");
    await page.getByRole("button", { name: "Create Session" }).click();
    await expect(page).toHaveURL(/code-editor-dashboard\//);
    const id = page.url().split("/").pop() ?? "";
    await page.getByRole("link", { name: "Ensemble" }).first().click();
    await expect(page.getByTestId("session-link")).toHaveAttribute("href", new RegExp(`${id}$`));
  });
});

test.describe("GitHub login", () => {
  test("goes through GitHub's OAuth (local fake) and comes back signed in", async ({ page }) => {
    await page.goto("/signin");
    await expect(page.getByText("or continue with")).toBeVisible();
    await page.getByRole("link", { name: "GitHub", exact: true }).click();
    await expect(page.getByText("Login successful")).toBeVisible();
    await expect(page).toHaveURL(/\/code-editor-dashboard$/);
    await expect(page.getByTestId("user-menu")).toHaveText(/octocat-e2e/);
  });

  test("the callback page shows our message for an error code, never the address's text", async ({
    page,
  }) => {
    await page.goto("/auth/callback?error=access_denied");
    await expect(page.getByText("GitHub login was cancelled.")).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
    await page.goto("/auth/callback?error=Your%20account%20is%20suspended");
    await expect(page.getByText("Authentication failed")).toBeVisible();
    await expect(page.getByText(/suspended/)).toHaveCount(0);
    await expect(page).toHaveURL(/\/signin$/);
    await page.goto("/auth/callback");
    await expect(page.getByText("Authentication failed").first()).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
  });

  test("a link with someone else's token or code signs nobody in", async ({ page, request }) => {
    const victimOf = newUser();
    const registered = await request.post("/api/auth/register", { data: victimOf });
    const { token } = (await registered.json()) as { token: string };
    await page.goto(`/auth/callback?token=${encodeURIComponent(token)}`);
    await expect(page.getByText("Authentication failed")).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
    // A code from a login another browser started: this browser holds no state for it.
    await page.goto("/auth/callback?code=a-code-from-someone-elses-login");
    await expect(page.getByText("Authentication failed").first()).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});

test.describe("account tokens", () => {
  test("a password change keeps this browser signed in and signs out the others", async ({
    page,
    newPage,
    request,
  }) => {
    const user = newUser();
    await registerViaApi(request, user);
    const other = await newPage();
    await signIn(other, user.email, user.password, user.name);
    await signIn(page, user.email, user.password, user.name);
    await page.goto("/account");
    await page.getByRole("button", { name: "Edit Info" }).click();
    await page.getByLabel("Password").fill("n3w-password");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Profile updated successfully")).toBeVisible();
    // The stored token is the fresh one: the server takes it.
    const status = await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${localStorage.getItem("token")}` };
      return (await fetch("/api/getuser", { headers })).status;
    });
    expect(status).toBe(200);
    await page.reload();
    await expect(page.getByRole("button", { name: "Edit Info" })).toBeVisible();
    await expect(page.getByTestId("user-menu")).toHaveText(new RegExp(user.name));
    // The other browser's next request is refused, and it signs out.
    await other.goto("/account");
    await expect(other.getByText("Please login to view/update account details")).toBeVisible();
    expect(await other.evaluate(() => localStorage.getItem("token"))).toBeNull();
  });

  test("after a password change, another tab of the same browser stays signed in with the fresh token", async ({
    page,
    request,
  }) => {
    const user = newUser();
    await registerViaApi(request, user);
    await signIn(page, user.email, user.password, user.name);
    const tab = await page.context().newPage();
    await tab.goto("/account");
    await tab.getByRole("button", { name: "Edit Info" }).click();
    await page.goto("/account");
    await page.getByRole("button", { name: "Edit Info" }).click();
    await page.getByLabel("Password").fill("n3w-password");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Profile updated successfully")).toBeVisible();
    // The other tab, untouched since before the change, saves with the token this one stored.
    const renamed = `${user.name}2`;
    await tab.getByLabel("Name", { exact: true }).fill(renamed);
    await tab.getByRole("button", { name: "Save Changes" }).click();
    await expect(tab.getByText("Profile updated successfully")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("user-menu")).toHaveText(new RegExp(renamed));
  });

  test("Sign out everywhere signs out this browser and every other", async ({ page, newPage, request }) => {
    const user = newUser();
    await registerViaApi(request, user);
    const other = await newPage();
    await signIn(other, user.name, user.password, user.name);
    await signIn(page, user.email, user.password, user.name);
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByText("Logged out successfully")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    await other.goto("/account");
    await expect(other.getByText("Please login to view/update account details")).toBeVisible();
    expect(await other.evaluate(() => localStorage.getItem("token"))).toBeNull();
  });
});
