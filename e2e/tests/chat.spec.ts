import { expectNoA11yViolations } from "../support/a11y";
import { Chat } from "../support/chat";
import { createHostedSession, EditorScreen, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";

test.describe("session chat", () => {
  test("a message reaches the other user with an unread count, shows HTML as text, and survives a reload", async ({
    twoEditors,
  }) => {
    const { account: host, host: ann, guest: ben } = await twoEditors("chatter");
    const annChat = new Chat(ann.page);
    const benChat = new Chat(ben.page);
    await expect(benChat.unread).toHaveCount(0);
    await expect(benChat.panel).toBeHidden();

    // Ann writes; Ben, whose panel is closed, sees the count on the toggle.
    await annChat.open();
    await expect(annChat.input).toBeFocused();
    await annChat.send("Hello Ben");
    await expect(annChat.texts()).toHaveText(["Hello Ben"]);
    await expect(annChat.input).toHaveValue("");
    await expect(benChat.unread).toHaveText("1");
    await expect(benChat.toggle).toHaveAccessibleName("Show chat, 1 unread");
    await annChat.send("Are you there?");
    await expect(benChat.unread).toHaveText("2");

    // Ben opens the chat: both messages, with Ann's name and a time; the count clears.
    await benChat.open();
    await expect(benChat.unread).toHaveCount(0);
    await expect(benChat.toggle).toHaveAccessibleName("Hide chat");
    await expect(benChat.texts()).toHaveText(["Hello Ben", "Are you there?"]);
    await expect(benChat.messages().first()).toContainText(host.name);
    await expect(benChat.messages().first().locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);

    // An HTML-looking message, on two lines, is shown as the literal text it is.
    const markup = "<img src=x onerror=\"document.title='pwned'\"><b>bold</b>";
    await benChat.send(markup, "second line");
    for (const chat of [annChat, benChat]) {
      const last = chat.texts().last();
      await expect(last).toHaveText(`${markup}\nsecond line`);
      await expect(last.locator("img, b")).toHaveCount(0);
    }
    await expect(benChat.messages().last()).toContainText("Anonymous (you)");
    expect(await ann.page.title()).not.toBe("pwned");
    // Ann's panel is open and at the bottom: nothing unread.
    await expect(annChat.unread).toHaveCount(0);

    // A refused message stays in the box with the reason.
    await benChat.input.fill("x".repeat(2001));
    await benChat.input.press("Enter");
    await expect(benChat.error).toHaveText("A message is at most 2000 characters");
    await expect(benChat.input).toHaveValue("x".repeat(2001));
    await expect(annChat.texts()).toHaveCount(3);

    // A reload shows the history, in order, and counts none of it as unread.
    await ann.page.reload();
    await ann.waitUntilLive();
    await expect(annChat.unread).toHaveCount(0);
    await annChat.open();
    await expect(annChat.texts()).toHaveText(["Hello Ben", "Are you there?", `${markup}\nsecond line`]);

    await expectNoA11yViolations(ann.page, { include: ["[data-testid=chat-panel]"], impact: "any" });
  });

  test("a flood is refused with the server's reason, and the text stays to send again", async ({
    page,
    request,
  }) => {
    const host = await createHostedSession(request, "flooder");
    await signInContext(page.context(), host);
    const ann = new EditorScreen(page);
    await ann.open(host.sessionId);
    const chat = new Chat(ann.page);
    await chat.open();
    // The server takes 10 messages per author in 10 s; the 11th is refused.
    for (let i = 1; i <= 10; i++) {
      await chat.send(`message ${i}`);
      await expect(chat.texts()).toHaveCount(i);
    }
    await chat.send("one too many");
    await expect(chat.error).toHaveText(/^You are sending messages too fast: try again in \d+ s$/);
    await expect(chat.input).toHaveValue("one too many");
    await expect(chat.texts()).toHaveCount(10);
  });

  test("an ended session's chat reads but takes nothing until the host reopens it", async ({
    page,
    request,
  }) => {
    const host = await createHostedSession(request, "archivist");
    await signInContext(page.context(), host);
    const ann = new EditorScreen(page);
    await ann.open(host.sessionId);
    const chat = new Chat(ann.page);
    await chat.open();
    await chat.send("before the end");
    await expect(chat.texts()).toHaveText(["before the end"]);

    await page.getByRole("button", { name: "End Session" }).click();
    await page
      .getByRole("dialog", { name: "Confirm Session Termination" })
      .getByRole("button", { name: "End Session" })
      .click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/code-editor-dashboard/${host.sessionId}`);
    const banner = page.getByTestId("session-ended-banner");
    await expect(banner).toContainText("This session has ended");
    await chat.open();
    await expect(chat.texts()).toHaveText(["before the end"]);
    await expect(chat.input).toBeDisabled();
    await expect(chat.panel).toContainText("The session has ended: the chat is read-only.");

    await banner.getByRole("button", { name: "Reopen session" }).click();
    await expect(banner).toHaveCount(0);
    await expect(chat.input).toBeEnabled();
    await chat.send("after reopening");
    await expect(chat.texts()).toHaveText(["before the end", "after reopening"]);
  });

  test("while scrolled up, new messages count as unread until the list is back at the bottom", async ({
    twoEditors,
  }) => {
    const { host: ann, guest: ben } = await twoEditors("scroller");
    const annChat = new Chat(ann.page);
    const benChat = new Chat(ben.page);
    await annChat.open();
    await benChat.open();
    // Enough lines to overflow the list, each typed and sent while the one before is on its way:
    // none is lost or left in the box, and they arrive in order.
    const tall = Array.from({ length: 8 }, (_, line) => `line ${line + 1}`).join("\n");
    for (let i = 1; i <= 6; i++) {
      await annChat.input.fill(`${i}\n${tall}`);
      await annChat.input.press("Enter");
    }
    await expect(benChat.texts()).toHaveCount(6);
    await expect(annChat.texts()).toHaveCount(6);
    const firstLines = (await benChat.texts().allTextContents()).map((text) => text.split("\n")[0]);
    expect(firstLines).toEqual(["1", "2", "3", "4", "5", "6"]);
    await expect(annChat.input).toHaveValue("");
    // Ben follows the newest message while at the bottom, so nothing is unread.
    await expect(benChat.unread).toHaveCount(0);
    const distanceFromBottom = () =>
      benChat.log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(await benChat.log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await expect.poll(distanceFromBottom).toBeLessThan(2);

    // Scrolled up to read, Ben is not pulled down, and the newcomer counts as unread.
    await benChat.log.evaluate((el) => el.scrollTo({ top: 0 }));
    await annChat.send("did you read the top?");
    await expect(benChat.unread).toHaveText("1");
    expect(await benChat.log.evaluate((el) => el.scrollTop)).toBe(0);
    await benChat.log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(benChat.unread).toHaveCount(0);

    await expectNoA11yViolations(ben.page, { include: ["[data-testid=chat-panel]"], impact: "any" });
  });
});
