import { expect, newUser, test } from "../support/fixtures";
import { registerViaApi, signIn } from "../support/flows";

test("the landing page shows the hero, features, steps, testimonials and footer", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Turn solo code into symphony");
  await expect(page.getByText("Write, share, and collaborate on code in real time.")).toBeVisible();
  await expect(page.getByText("Unified Platform for Seamless Collaboration")).toBeVisible();
  for (const feature of ["Audio Calls", "Video Calls", "Real-Time Collaboration"]) {
    await expect(page.getByText(feature, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "How it Works" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What Our Clients Say" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Meet the Developer" })).toBeVisible();
  for (const link of await page.getByRole("contentinfo").locator("a[target=_blank]").all()) {
    await expect(link).toHaveAttribute("rel", /noopener/);
  }
});

test("the developer card is hidden on small screens", async ({ page }) => {
  await page.setViewportSize({ width: 500, height: 900 });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Meet the Developer" })).toBeHidden();
  await page.getByRole("button", { name: /menu/i }).click();
  await expect(page.getByRole("link", { name: "Docs" }).last()).toBeVisible();
});

test("the user dropdown closes on an outside click", async ({ page, request }) => {
  const user = newUser();
  await registerViaApi(request, user);
  await signIn(page, user.email, user.password, user.name);
  await page.getByTestId("user-menu").click();
  await expect(page.getByRole("menuitem", { name: "Account" })).toBeVisible();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByRole("menuitem", { name: "Account" })).toBeHidden();
});

test("documentation filters cards without regard to case and opens a card's route", async ({ page }) => {
  await page.goto("/documentation");
  const cards = ["Introduction", "Installation", "APIs", "Integrations", "Utilities", "Web"];
  for (const card of cards) await expect(page.getByRole("link", { name: card, exact: true })).toBeVisible();
  await page.getByRole("searchbox").fill("inT");
  await expect(page.getByRole("link", { name: "Introduction", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Integrations", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Web", exact: true })).toBeHidden();
  await page.getByRole("link", { name: "Integrations", exact: true }).click();
  await expect(page).toHaveURL(/\/integrations$/);
});

test.describe("without scripts", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in and documentation come prerendered in the server's page", async ({ page }) => {
    // Inert until hydrated, so read as markup, not through the accessibility tree.
    await page.goto("/signin");
    await expect(page.locator("h1")).toHaveText("Sign In");
    await expect(page.locator("#signin-email")).toBeVisible();
    await expect(page.locator("#signin-password")).toBeVisible();
    await page.goto("/documentation");
    await expect(page.locator("h1")).toHaveText("Documentation");
    await expect(page.locator(".card-link")).toHaveCount(6);
  });
});

test("prerendered sign-in and documentation hydrate without an error and navigate in the app", async ({
  page,
}) => {
  await page.goto("/signin");
  // #root loses inert once the page, lazy chunk included, has hydrated.
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  await page.getByLabel("Email/Username").fill("someone");
  await page.getByRole("link", { name: "Docs" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Documentation");
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign In");
  await page.goto("/documentation");
  await expect(page.locator("#root")).not.toHaveAttribute("inert");
  await page.getByRole("searchbox").fill("web");
  await expect(page.getByRole("link", { name: "Web", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "APIs", exact: true })).toBeHidden();
});

test("blogs open five articles in new tabs; About lists five features", async ({ page }) => {
  await page.goto("/blogs");
  const links = page.getByRole("main").locator("a[target=_blank]");
  await expect(links).toHaveCount(5);
  await page.goto("/About");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("the account page asks a signed-out visitor to log in", async ({ page }) => {
  await page.goto("/account");
  await expect(page.getByText("Please login to view/update account details")).toBeVisible();
});

test("an editor path asks for the editor's chunks at once; other pages served the bare page do not", async ({
  page,
}) => {
  const editorChunk = 'link[rel="modulepreload"][href*="/assets/EditorPage-"]';
  // The app's entry never runs (its own lazy loading would ask for the chunk too): what is asked
  // for comes from app.html's inline script, allowed by its CSP hash (the fixture fails on a violation).
  await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
  await page.goto("/account");
  await expect(page.locator("#root[data-shell]")).toBeAttached();
  await expect(page.locator(editorChunk)).toHaveCount(0);
  const requested = page.waitForRequest(/\/assets\/EditorPage-[\w-]+\.js$/);
  await page.goto("/code-editor-dashboard/no-such-session");
  await requested;
  await expect(page.locator(editorChunk)).toHaveCount(1);
});
