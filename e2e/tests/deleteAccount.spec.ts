import type { APIRequestContext, Page } from "@playwright/test";
import { unzipSync } from "fflate";
import { expectNoA11yViolations } from "../support/a11y";
import { Chat } from "../support/chat";
import { createHostedSession, EditorScreen, type Host, signInContext } from "../support/editor";
import { expect, newUser, test } from "../support/fixtures";
import { signUp } from "../support/flows";

/** A fresh account registered through the API, with what signing it in needs. */
async function registerAccount(request: APIRequestContext, label: string) {
  const account = newUser(label);
  const res = await request.post("/api/auth/register", { data: account });
  expect(res.status()).toBe(201);
  const { token, user } = (await res.json()) as { token: string; user: { id: string } };
  return { ...account, token, user };
}

/** Downloads the export from the account page and answers its entries. */
async function downloadExport(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^ensemble-export-\d{4}-\d\d-\d\d\.zip$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return unzipSync(new Uint8Array(Buffer.concat(chunks)));
}

test.describe("delete my account", () => {
  test("A deletes the account with the password: signed out everywhere, shown as Deleted user, the email free again", async ({
    page,
    newPage,
    request,
  }) => {
    // Three contexts and an editor each for two of them: more than the default minute on a busy machine.
    test.setTimeout(180_000);
    // Bea hosts; Ann, signed in, joins and writes in the chat. Ann also hosts a session alone.
    const bea = await createHostedSession(request, "bea");
    const ann = await registerAccount(request, "ann");
    const alone = await request.post("/api/session/create", {
      data: { title: "ann alone" },
      headers: { Authorization: `Bearer ${ann.token}` },
    });
    expect(alone.status()).toBe(201);
    await signInContext(page.context(), { name: ann.name, token: ann.token, user: ann.user, sessionId: "" });
    const beaPage = await newPage();
    await signInContext(beaPage.context(), bea);
    const beaScreen = new EditorScreen(beaPage);
    const annScreen = new EditorScreen(page);
    await beaScreen.open(bea.sessionId);
    await annScreen.open(bea.sessionId);
    const annChat = new Chat(page);
    await annChat.open();
    await annChat.send("Hello from Ann");
    const beaChat = new Chat(beaPage);
    await beaChat.open();
    await expect(beaChat.messages().first()).toContainText(ann.name);

    // Ann deletes her account: the dialog says what happens to her sessions.
    await page.goto("/account");
    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await expect(dialog).toContainText("1 session only you took part in will be deleted with their files.");
    await expect(dialog).toContainText("0 sessions you host that others took part in will end");
    await expect(dialog).toContainText("shown as “Deleted user”");
    await expectNoA11yViolations(page);
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Password").fill("not-my-password");
    await confirm.click();
    await expect(dialog.getByRole("alert")).toHaveText("Password is incorrect");
    await dialog.getByLabel("Password").fill(ann.password);
    await confirm.click();
    await expect(page.getByText("Your account was deleted")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    // Her old token is refused by the API; she cannot sign in.
    const getUser = await request.get("/api/getuser", { headers: { Authorization: `Bearer ${ann.token}` } });
    expect(getUser.status()).toBe(401);
    const fresh = await newPage();
    await fresh.goto("/signin");
    await fresh.getByLabel("Email/Username").fill(ann.email);
    await fresh.getByLabel("Password").fill(ann.password);
    await fresh.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(fresh.getByText("Invalid email/username or password").first()).toBeVisible();

    // Bea sees Ann's message attributed to "Deleted user": at once, and in the history the server sends.
    await expect(beaChat.messages().first()).toContainText("Deleted user");
    await expect(beaChat.messages().first()).not.toContainText(ann.name);
    await beaPage.reload();
    await beaScreen.waitUntilLive();
    await beaChat.open();
    await expect(beaChat.texts()).toHaveText(["Hello from Ann"]);
    await expect(beaChat.messages().first()).toContainText("Deleted user");
    await expect(beaChat.messages().first()).not.toContainText(ann.name);

    // Ann's email and username can sign up again.
    await signUp(fresh, { name: ann.name, email: ann.email, password: "a-new-start" });
    await expect(fresh.getByText("Registration successful!").first()).toBeVisible();
  });

  test("the export holds the account and the hosted session's files", async ({ page, request }) => {
    const host: Host = await createHostedSession(request, "exporter");
    await signInContext(page.context(), host);
    const screen = new EditorScreen(page);
    await screen.open(host.sessionId);
    await screen.caretToEndOf(1);
    await screen.type("\n// kept in the export");
    await expect.poll(() => screen.text()).toContain("// kept in the export");
    const mainFile = (await screen.activeFile()) ?? "";
    const expected = await screen.text();

    await page.goto("/account");
    const entries = await downloadExport(page);
    const account = JSON.parse(new TextDecoder().decode(entries["account.json"])) as Record<string, unknown>;
    expect(account).toMatchObject({ name: host.name, email: `${host.name}@example.test`, hasPassword: true });
    expect(JSON.stringify(account)).not.toMatch(/argon2|password_hash|"password"/);
    expect(new TextDecoder().decode(entries[`sessions/${host.sessionId}/${mainFile}`])).toBe(expected);
    expect(Object.keys(entries)).toEqual(
      expect.arrayContaining(["sessions.json", "pull-requests.json", "chat-messages.json"]),
    );
  });
});
