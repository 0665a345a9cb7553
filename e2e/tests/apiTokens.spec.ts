import { expectNoA11yViolations } from "../support/a11y";
import { expect, newUser, test } from "../support/fixtures";
import { registerViaApi, signIn } from "../support/flows";

const hello = { language: "python", version: "*", files: [{ content: "print('via token')" }] };

test.describe("API tokens on the account page", () => {
  test("creates a token shown once, which runs code until it is revoked", async ({ page, request }) => {
    const user = newUser();
    await registerViaApi(request, user);
    await signIn(page, user.email, user.password, user.name);
    await page.goto("/account");
    const section = page.getByRole("region", { name: "API tokens" });
    await expect(section.getByText("You have no API tokens.")).toBeVisible();

    await section.getByLabel("Token name").fill("CI runner");
    await section.getByRole("button", { name: "Create token" }).click();
    const secretField = section.getByLabel("New API token");
    await expect(secretField).toHaveValue(/^ens_[A-Za-z0-9_-]{43}$/);
    const secret = await secretField.inputValue();
    await expect(section.getByLabel("Token name")).toHaveValue("");
    await expect(section.getByRole("list", { name: "Your API tokens" }).getByText("CI runner")).toBeVisible();
    await expectNoA11yViolations(page, { include: ["main"] });

    // Piston's public instance takes its key bare in Authorization; so do we.
    const run = await request.post("/api/v2/execute", { data: hello, headers: { authorization: secret } });
    expect(run.status()).toBe(200);
    expect((await run.json()).run.stdout).toBe("via token\n");

    await section.getByRole("button", { name: "Done" }).click();
    await expect(secretField).toHaveCount(0);
    await page.reload();
    await expect(section.getByText("last used")).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    await section.getByRole("button", { name: "Revoke CI runner" }).click();
    await expect(section.getByText("You have no API tokens.")).toBeVisible();
    const revoked = await request.post("/api/v2/execute", {
      data: hello,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(revoked.status()).toBe(401);
  });
});
