import type { WebSocketRoute } from "@playwright/test";
import { expectNoA11yViolations } from "../support/a11y";
import {
  createHostedSession,
  EditorScreen,
  expectConverged,
  isSubsequence,
  openThree,
} from "../support/editor";
import { expect, test } from "../support/fixtures";

const JS_STARTER = '// Welcome to Ensemble: edit together, run, review.\nconsole.log("Hello, world!");\n';
const PY_STARTER = '# Welcome to Ensemble: edit together, run, review.\nprint("Hello, world!")\n';

test.describe("live editor", () => {
  test("three users typing into the same line at once all end with the same text, every keystroke kept", async ({
    page,
    newPage,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const screens = [...(await openThree(page, newPage, sessionId))];
    expect(await screens[0]?.text()).toBe(JS_STARTER);

    // Plain letters (no brackets, no Enter) so Monaco's auto-closing and indenting add nothing.
    const typed = ["abcdefghij", "klmnopqrst", "ABCDEFGHIJ"];
    for (const screen of screens) await screen.caretToEndOf(2);
    await Promise.all(screens.map((screen, i) => screen.type(typed[i] ?? "", 25)));

    const expectedLength = JS_STARTER.length + typed.join("").length;
    const text = await expectConverged(screens, (t) => t.length === expectedLength);
    const line = text.split("\n")[1] ?? "";
    expect(line.startsWith('console.log("Hello, world!");')).toBe(true);
    for (const word of typed) expect(isSubsequence(word, line), `${word} in ${line}`).toBe(true);
  });

  test("a remote typist shows a name label that vanishes 3 s after their last edit", async ({
    twoEditors,
  }) => {
    const { account: host, host: alice, guest } = await twoEditors("alice");

    await expect(guest.page.getByTestId("participants")).toContainText(host.name);
    await expect(guest.page.getByTestId("participants")).toContainText("Anonymous");

    await alice.caretToEndOf(1);
    await alice.type(" hi");
    const label = guest.page.locator(".remote-cursor-label", { hasText: host.name });
    await expect(label).toBeVisible();
    await expect(guest.page.getByTestId("active-users")).toHaveText("1 active · 2 online");
    await guest.page.screenshot({ path: test.info().outputPath("remote-label.png") });
    // The label goes with the highlight once Alice has been idle for 3 s.
    await expect(label).toBeHidden({ timeout: 8000 });
  });

  test("a language switch reaches everyone, each file keeps its text, and undo takes back only your own edits", async ({
    page,
    newPage,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const ann = new EditorScreen(page);
    const ben = new EditorScreen(await newPage());
    await ann.open(sessionId);
    await ben.open(sessionId);

    await ann.caretToEndOf(2);
    await ann.type(" // ann");
    await expectConverged([ann, ben], (t) => t.includes("// ann"));

    await ben.page.getByLabel("Language").selectOption("python");
    for (const screen of [ann, ben]) {
      await expect(screen.page.getByTestId("editor-file-name")).toHaveText("src/main.py");
      await expect.poll(() => screen.language()).toBe("python");
      await expect(screen.page.getByLabel("Language")).toHaveValue("python");
    }
    await expectConverged([ann, ben], (t) => t === PY_STARTER);
    await ann.waitUntilLive();

    // Undo is per user: Ann's Ctrl+Z removes her text and leaves Ben's.
    await ann.caretToEndOf(2);
    await ann.type(" #ann");
    await expectConverged([ann, ben], (t) => t.includes("#ann"));
    await ben.caretToEndOf(1);
    await ben.type(" #ben");
    await expectConverged([ann, ben], (t) => t.includes("#ben"));
    await ann.page.keyboard.press("Control+z");
    await expectConverged([ann, ben], (t) => t.includes("#ben") && !t.includes("#ann"));
    await ann.page.keyboard.press("Control+Shift+z");
    await expectConverged([ann, ben], (t) => t.includes("#ben") && t.includes("#ann"));

    await ann.page.getByLabel("Language").selectOption("javascript");
    await expect(ben.page.getByTestId("editor-file-name")).toHaveText("src/main.js");
    await expectConverged([ann, ben], (t) => t.includes("// ann") && t.startsWith("// Welcome"));
  });

  test("a user who goes offline keeps typing, sees OFFLINE, and merges when back", async ({
    page,
    newPage,
    request,
  }) => {
    const { sessionId } = await createHostedSession(request);
    const away = new EditorScreen(page);
    const stay = new EditorScreen(await newPage());
    await away.open(sessionId);
    await stay.open(sessionId);
    await expect(away.status).toHaveText("CONNECTED");

    await page.context().setOffline(true);
    await expect(away.status).toHaveText("OFFLINE");
    await away.caretToEndOf(1);
    await away.type(" offline-edit");
    await page.screenshot({ path: test.info().outputPath("offline.png") });
    await stay.caretToEndOf(2);
    await stay.type(" online-edit");
    await expect.poll(() => away.text()).toContain("offline-edit");
    expect(await stay.text()).not.toContain("offline-edit");

    await page.context().setOffline(false);
    await expect(away.status).toHaveText("CONNECTED", { timeout: 15_000 });
    await expectConverged([away, stay], (t) => t.includes("offline-edit") && t.includes("online-edit"));
  });

  test("an edit made offline survives a reload while the server is unreachable, then merges", async ({
    page,
    newPage,
    request,
  }) => {
    // A page cannot be reloaded with the whole network off (nothing serves it), so the reload
    // happens with only the collaboration socket cut: the page loads, the server does not
    // answer, and the edit must come from this browser's IndexedDB copy.
    const { sessionId } = await createHostedSession(request);
    const context = page.context();
    let isCut = false;
    const sockets: WebSocketRoute[] = [];
    await context.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      // Closing the server side before the handshake fails the page's connection attempt.
      if (isCut) void server.close();
      else sockets.push(ws);
    });
    await context.route(/\/socket\.io\//, (route) => (isCut ? route.abort() : route.fallback()));

    const writer = new EditorScreen(page);
    await writer.open(sessionId);
    const storedBefore = await writer.storedUpdates(sessionId);

    isCut = true;
    await context.setOffline(true);
    for (const ws of sockets) await ws.close();
    await expect(writer.status).toHaveText("OFFLINE");
    const edit = " kept-through-reload";
    await writer.caretToEndOf(1);
    await writer.type(edit);
    // One stored update per keystroke: wait until all of them are on disk before reloading.
    await expect
      .poll(() => writer.storedUpdates(sessionId))
      .toBeGreaterThanOrEqual(storedBefore + edit.length);

    await context.setOffline(false);
    await page.reload();
    await page.waitForFunction(() => window.__ensemble?.ready === true);
    expect(await writer.text()).toContain("kept-through-reload");
    await expect(writer.status).not.toHaveText("CONNECTED");

    isCut = false;
    const reader = new EditorScreen(await newPage());
    await reader.open(sessionId);
    await expect(writer.status).toHaveText("CONNECTED", { timeout: 15_000 });
    await expectConverged([writer, reader], (t) => t.includes("kept-through-reload"));
  });

  test("the host ends the session: confirmation modal, participants told, everyone back home", async ({
    page,
    twoEditors,
  }) => {
    const { guest } = await twoEditors();
    // Everyone may end the session for themselves (issue 10); only the host's ends it for all.
    await expect(guest.page.getByRole("button", { name: "End Session" })).toHaveCount(1);

    await expectNoA11yViolations(page, { exclude: [".monaco-editor"] });

    await page.getByRole("button", { name: "Copy session ID" }).click();
    await expect(page.getByText("Copied")).toBeVisible();
    await expect(page.getByText("Copied")).toBeHidden({ timeout: 5000 });

    const endButton = page.getByRole("button", { name: "End Session" });
    const modal = page.getByRole("dialog", { name: "Confirm Session Termination" });
    await endButton.click();
    await expect(modal).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(modal).toBeHidden();
    await endButton.click();
    // Radix listens for an outside click only once the dialog is open: click before, and it stays.
    await expect(modal).toBeVisible();
    await page.mouse.click(5, 300);
    await expect(modal).toBeHidden();
    await endButton.click();
    await modal.getByRole("button", { name: "End Session" }).click();
    await expect(page.getByText("Session ended Successfully")).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    const ending = guest.page.getByRole("dialog", { name: "SESSION ENDING" });
    await expect(ending).toContainText("The session host is ending this session.");
    await ending.getByRole("button", { name: "End Without PR" }).click();
    await expect(guest.page.getByText("Session ended Successfully")).toBeVisible();
    await expect(guest.page).toHaveURL(/\/$/);
  });

  test("an unknown session id says so, with a way home", async ({ page }) => {
    await page.goto("/code-editor-dashboard/no-such-session-e2e");
    await expect(page.getByRole("heading", { name: "Session not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
