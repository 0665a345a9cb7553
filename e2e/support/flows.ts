import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { TestUser } from "./users";

/** Registers through the API, for tests whose subject is not sign-up itself. */
export async function registerViaApi(request: APIRequestContext, user: TestUser) {
  const res = await request.post("/api/auth/register", { data: user });
  expect(res.status()).toBe(201);
}

/** Fills and sends the sign-up form. */
export async function signUp(page: Page, user: TestUser, confirm = user.password) {
  await page.goto("/signup");
  await page.getByLabel("Username").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm Password").fill(confirm);
  await page.getByRole("button", { name: "Sign Up" }).click();
}

/** Signs in through the form and waits for the welcome toast and the landing page. */
export async function signIn(page: Page, login: string, password: string, name: string) {
  await page.goto("/signin");
  await page.getByLabel("Email/Username").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

/** Opens the user dropdown and logs out. */
export async function logOut(page: Page) {
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByText("Logged out successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}
