import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { EditorScreen, expectConverged, type Host, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";

// The README's picture. Written into the docs only on request, so a CI run never dirties the tree.
const DOCS_IMAGE = path.resolve(import.meta.dirname, "../../docs/images/shared-session.png");
const shouldUpdateDocs = process.env.UPDATE_DOCS_SCREENSHOT === "1";

const ADA_LINE = 'const team = ["Ada", "Grace"];';
const GRACE_LINE = 'team.forEach((name) => console.log("Hi, " + name));';

/** Signs `name` up, or in when a retry on the same server already made the account. */
async function account(request: APIRequestContext, name: string) {
  const body = { name, email: `${name.toLowerCase()}@example.test`, password: `docs-${name}-password` };
  const registered = await request.post("/api/auth/register", { data: body });
  const answer =
    registered.status() === 409
      ? await request.post("/api/auth/login", { data: { email: body.email, password: body.password } })
      : registered;
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()) as { token: string; user: unknown };
}

test.describe("the README's screenshot", () => {
  test("two people edit one session and each sees the other's named cursor", async ({
    page,
    newPage,
    request,
  }, testInfo) => {
    const ada = await account(request, "Ada");
    const grace = await account(request, "Grace");
    const created = await request.post("/api/session/create", {
      data: { title: "Team greeting" },
      headers: { Authorization: `Bearer ${ada.token}` },
    });
    expect(created.status()).toBe(201);
    const { session_id: sessionId } = (await created.json()) as { session_id: string };
    const host: Host = { name: "Ada", ...ada, sessionId };

    await signInContext(page.context(), host);
    const gracePage = await newPage();
    await signInContext(gracePage.context(), { name: "Grace", ...grace, sessionId });
    const screens = [new EditorScreen(page), new EditorScreen(gracePage)] as const;
    for (const screen of screens) await screen.page.setViewportSize({ width: 1280, height: 720 });
    await Promise.all(screens.map((screen) => screen.open(sessionId)));

    const [adaScreen, graceScreen] = screens;
    await adaScreen.caretToEndOf(2);
    await adaScreen.type(`\n${ADA_LINE}`);
    await expectConverged([...screens], (text) => text.includes(ADA_LINE));
    await graceScreen.caretToEndOf(3);
    await graceScreen.type(`\n${GRACE_LINE}`);
    const text = await expectConverged([...screens], (t) => t.includes(GRACE_LINE));
    expect(text.split("\n").slice(2, 4)).toEqual([ADA_LINE, GRACE_LINE]);

    // A remote cursor and its name show for 3 s after that person's last edit: shoot before.
    await expect(page.locator(".remote-cursor-label", { hasText: "Grace" })).toBeVisible();
    const image = await page.screenshot({
      path: shouldUpdateDocs ? DOCS_IMAGE : testInfo.outputPath("shared-session.png"),
    });
    await testInfo.attach("shared-session", { body: image, contentType: "image/png" });
  });
});
