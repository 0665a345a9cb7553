import { type Browser, expect, request as playwrightRequest, test } from "@playwright/test";
import { CallScreen } from "../support/calls";
import { CLUSTER_URL, killNode, liveNode, liveSessionsOn, setInRing } from "../support/cluster";
import { createHostedSession, EditorScreen, expectConverged, signInContext } from "../support/editor";

// The cluster is the config's (support/clusterSetup.ts); these walks run last, as two of them kill a node.

/** A host (signed in) and a guest, each in a browser of its own, on a new session through the balancer. */
async function hostAndGuest(browser: Browser, label: string) {
  const request = await playwrightRequest.newContext({ baseURL: CLUSTER_URL });
  const host = await createHostedSession(request, label);
  const hostContext = await browser.newContext();
  await signInContext(hostContext, host);
  const guestContext = await browser.newContext();
  return {
    sessionId: host.sessionId,
    hostScreen: new EditorScreen(await hostContext.newPage()),
    guestScreen: new EditorScreen(await guestContext.newPage()),
    async close() {
      await hostContext.close();
      await guestContext.close();
      await request.dispose();
    },
  };
}
test("a session served by two nodes ends on the balancer's: the moved browser shows CONNECTING, never OFFLINE", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const pair = await hostAndGuest(browser, "handover");
  const { sessionId, hostScreen, guestScreen } = pair;
  await hostScreen.open(sessionId);
  const home = await liveNode();
  expect(home).toBeGreaterThanOrEqual(0);
  // Every status the host's bar shows from now on (a test-side observer, not the app's).
  await hostScreen.page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { statusesSeen: seen });
    const read = () => document.querySelector("[data-testid=connection-status]")?.textContent ?? "";
    setInterval(() => {
      const now = read();
      if (seen.at(-1) !== now) seen.push(now);
    }, 20);
  });
  // The host's node leaves the ring (a flapping check) while its connections stay: the
  // guest lands on another node, which then serves the session too.
  await setInRing(home, false);
  try {
    await guestScreen.open(sessionId);
    await hostScreen.caretToEndOf(1);
    await hostScreen.type("/*host*/");
    await guestScreen.caretToEndOf(2);
    await guestScreen.type("/*guest*/");
    await expectConverged(
      [hostScreen, guestScreen],
      (text) => text.includes("/*host*/") && text.includes("/*guest*/"),
    );
    // The host was handed to the guest's node: the session is live on that one node only.
    await expect.poll(() => liveSessionsOn(home), { timeout: 15_000 }).toBe(0);
    expect(await liveNode()).not.toBe(home);
    await hostScreen.waitUntilLive();
    const seen = await hostScreen.page.evaluate(
      () => (window as unknown as { statusesSeen: string[] }).statusesSeen,
    );
    expect(seen).toContain("CONNECTING");
    expect(seen).not.toContain("OFFLINE");
    await hostScreen.type("/*after*/");
    await expectConverged([hostScreen, guestScreen], (text) => text.includes("/*after*/"));
  } finally {
    await setInRing(home, true);
  }
  await pair.close();
});

test("the lobby is one for the whole cluster: the host admits a guest who waits on another node", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const pair = await hostAndGuest(browser, "lobbyacross");
  const { sessionId, hostScreen, guestScreen } = pair;
  await hostScreen.open(sessionId);
  const access = hostScreen.page.getByTestId("session-access");
  await access.getByRole("button", { name: "Lock session" }).click();
  await expect(access.getByRole("button", { name: "Unlock session" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  const home = await liveNode();
  expect(home).toBeGreaterThanOrEqual(0);
  // The host's node leaves the ring while its connections stay: the guest knocks on another node.
  await setInRing(home, false);
  try {
    await guestScreen.page.goto(`/code-editor-dashboard/${sessionId}`);
    const lobby = guestScreen.page.getByTestId("lobby");
    await expect(lobby).toContainText("Waiting for the host");
    await expect(access.getByTestId("lobby-count")).toHaveText("1 waiting");
    await access.getByRole("button", { name: "Admit Anonymous" }).click();
    await expect(lobby).toHaveCount(0);
    await guestScreen.waitUntilLive();
    // The guest's node serves the session now; the host is handed over to it.
    await expect.poll(() => liveSessionsOn(home), { timeout: 15_000 }).toBe(0);
    await hostScreen.waitUntilLive();
    await hostScreen.caretToEndOf(1);
    await hostScreen.type("/*together*/");
    await expectConverged([hostScreen, guestScreen], (text) => text.includes("/*together*/"));
  } finally {
    await setInRing(home, true);
  }
  await pair.close();
});

test("a call survives its node's death: both browsers rejoin it through HAProxy, media and signalling work again", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const pair = await hostAndGuest(browser, "callover");
  const screens = [pair.hostScreen, pair.guestScreen];
  for (const screen of screens) await screen.open(pair.sessionId);
  const [hostCall, guestCall] = screens.map((screen) => new CallScreen(screen.page));
  if (!hostCall || !guestCall) throw new Error("two screens expected");
  for (const call of [hostCall, guestCall]) await call.join();
  for (const call of [hostCall, guestCall]) await call.connectedTo(1);

  const node = await liveNode();
  expect(node).toBeGreaterThanOrEqual(0);
  killNode(node);
  for (const screen of screens) await screen.waitUntilLive();
  // Each browser rejoined the call on the surviving node by itself: links again, media flows.
  for (const call of [hostCall, guestCall]) await call.connectedTo(1, 30_000);
  for (const call of [hostCall, guestCall]) await call.receivesFromAll({}, 30_000);
  // Signalling goes through the new node: a mute reaches the other browser.
  const guestId = await guestCall.peerId();
  await guestCall.panel.getByRole("button", { name: "Mute microphone" }).click();
  await expect(hostCall.panel.locator(`[data-peer-id="${guestId}"]`).first()).toHaveAttribute(
    "data-muted",
    "true",
  );
  expect(await liveNode()).not.toBe(node);
  await pair.close();
});

test("two browsers keep editing through their node's death: they reconnect through HAProxy and converge", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const pair = await hostAndGuest(browser, "cluster");
  const { sessionId, hostScreen, guestScreen } = pair;
  await hostScreen.open(sessionId);
  await guestScreen.open(sessionId);
  await hostScreen.caretToEndOf(1);
  await hostScreen.type("/*before*/");
  await expectConverged([hostScreen, guestScreen], (text) => text.includes("/*before*/"));

  const node = await liveNode();
  expect(node).toBeGreaterThanOrEqual(0);
  killNode(node);
  // Both type while their node is gone; the edits wait in their documents.
  await hostScreen.type("/*host-during*/");
  await guestScreen.caretToEndOf(2);
  await guestScreen.type("/*guest-during*/");
  await hostScreen.waitUntilLive();
  await guestScreen.waitUntilLive();
  await hostScreen.type("/*after*/");
  await expectConverged([hostScreen, guestScreen], (text) =>
    ["/*before*/", "/*host-during*/", "/*guest-during*/", "/*after*/"].every((mark) => text.includes(mark)),
  );
  const moved = await liveNode();
  expect(moved).not.toBe(node);
  await pair.close();
});
