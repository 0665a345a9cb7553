import { CallScreen } from "../support/calls";
import { createHostedSession, EditorScreen, openThree, signInContext } from "../support/editor";
import { expect, test } from "../support/fixtures";

// The spec's texts (packages/protocol calls.ts CALL_MESSAGES), as a user reads them.
const FULL = "The call is full: up to 6 people can join.";
const NO_DEVICES_ALERT = "No camera or microphone found. Please connect your devices and refresh.";
const NO_DEVICES_TOAST =
  "Error accessing camera/microphone: No camera or microphone found. Please connect your devices.";

test.describe("calls", () => {
  test("three people join: every pair receives audio and video; mute, screen share and a dropped network", async ({
    page,
    newPage,
    request,
  }) => {
    test.setTimeout(120_000);
    const account = await createHostedSession(request, "callhost");
    await signInContext(page.context(), account);
    const screens = await openThree(page, newPage, account.sessionId);
    const [host, guest, third] = screens.map((s) => new CallScreen(s.page));
    if (!host || !guest || !third) throw new Error("three screens expected");

    // Nobody is asked for devices before choosing to join.
    await host.openPanel();
    await expect(host.panel.getByRole("button", { name: "Join call" })).toBeVisible();
    expect(await host.stats()).toEqual([]);

    for (const person of [host, guest, third]) await person.join();
    for (const person of [host, guest, third]) await person.connectedTo(2);
    for (const person of [host, guest, third]) await person.receivesFromAll();
    await expect(host.panel.getByTestId("call-status")).toHaveText("connected");

    // Mute: the others are told, and the guest's audio bytes stop.
    const guestId = await guest.peerId();
    if (!guestId) throw new Error("the guest has no peer id");
    expect(await host.audioBytesFrom(guestId)).toBeGreaterThan(0);
    await guest.panel.getByRole("button", { name: "Mute microphone" }).click();
    await expect(host.panel.locator(`[data-peer-id="${guestId}"]`).first()).toHaveAttribute(
      "data-muted",
      "true",
    );
    await expect.poll(() => host.audioBytesFrom(guestId, 1000), { timeout: 10_000 }).toBe(0);
    await host.receivesFromAll({ audio: false, peerId: guestId });

    // Screen share replaces the guest's outgoing video; everyone still decodes it and sees it shared.
    const cameraLabel = (await guest.stats())[0]?.sentVideo.label;
    await guest.panel.getByRole("button", { name: "Share screen" }).click();
    await expect
      .poll(async () => (await guest.stats()).every((s) => s.sentVideo.label !== cameraLabel))
      .toBe(true);
    await expect(third.panel.locator(`[data-peer-id="${guestId}"]`).first()).toHaveAttribute(
      "data-sharing",
      "true",
    );
    await third.receivesFromAll({ audio: false, peerId: guestId });
    await guest.panel.getByRole("button", { name: "Stop sharing" }).click();
    await expect.poll(async () => (await guest.stats())[0]?.sentVideo.label).toBe(cameraLabel);

    // The third person's network drops and comes back: media flows again within 15 s, nobody acts.
    await third.page.context().setOffline(true);
    await expect(host.panel.locator("[data-peer-id]")).not.toHaveCount(3);
    await third.page.context().setOffline(false);
    const back = Date.now();
    await third.connectedTo(2, 15_000);
    await host.connectedTo(2, 15_000);
    await third.receivesFromAll({ audio: false });
    await host.receivesFromAll({ audio: false, peerId: (await third.peerId()) ?? "" });
    expect(Date.now() - back).toBeLessThan(15_000);

    // A reload during the call comes back into it by itself.
    await guest.page.reload();
    await guest.openPanel();
    await guest.connectedTo(2, 15_000);
    await host.connectedTo(2, 15_000);
    await host.receivesFromAll({ peerId: (await guest.peerId()) ?? "" });
  });

  test("two people joining at the same instant both connect", async ({ twoEditors }) => {
    const { host: a, guest: b } = await twoEditors("glare", { together: true });
    const [ca, cb] = [new CallScreen(a.page), new CallScreen(b.page)];
    await Promise.all([ca.openPanel(), cb.openPanel()]);
    await Promise.all([
      ca.panel.getByRole("button", { name: "Join call" }).click(),
      cb.panel.getByRole("button", { name: "Join call" }).click(),
    ]);
    await ca.connectedTo(1);
    await cb.connectedTo(1);
    await ca.receivesFromAll();
    await cb.receivesFromAll();
  });

  test("without devices one is told so and still joins; the seventh person is told the call is full", async ({
    page,
    newPage,
    request,
  }) => {
    test.setTimeout(120_000);
    const account = await createHostedSession(request, "full");
    await signInContext(page.context(), account);
    // Six people whose browsers have no camera or microphone (cheap for two cores: nothing to encode).
    const people = [page];
    for (let i = 1; i < 6; i++) people.push(await newPage());
    for (const person of people) {
      await person.addInitScript(() => {
        navigator.mediaDevices.getUserMedia = () =>
          Promise.reject(new DOMException("Requested device not found", "NotFoundError"));
      });
      await new EditorScreen(person).open(account.sessionId);
    }
    const first = new CallScreen(page);
    await first.join();
    await expect(first.panel.getByRole("alert")).toContainText(NO_DEVICES_ALERT);
    await expect(page.getByText(NO_DEVICES_TOAST)).toBeVisible();
    for (const person of people.slice(1)) await new CallScreen(person).join();
    await expect.poll(() => first.stats().then((s) => s.length), { timeout: 20_000 }).toBe(5);

    const seventh = new CallScreen(await newPage());
    await new EditorScreen(seventh.page).open(account.sessionId);
    await seventh.join();
    await expect(seventh.panel.getByRole("alert")).toContainText(FULL);
    expect(await seventh.stats()).toEqual([]);
  });
});
