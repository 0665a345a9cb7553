import { expect, request as playwrightRequest, test } from "@playwright/test";
import { CLUSTER_URL, startCluster } from "../support/cluster";
import { createHostedSession, EditorScreen, expectConverged, signInContext } from "../support/editor";

let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;

test.beforeAll(async () => {
  cluster = await startCluster();
});
test.afterAll(async () => {
  await cluster?.stop();
});

test("two browsers keep editing through their node's death: they reconnect through HAProxy and converge", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const request = await playwrightRequest.newContext({ baseURL: CLUSTER_URL });
  const host = await createHostedSession(request, "cluster");
  const hostContext = await browser.newContext();
  await signInContext(hostContext, host);
  const guestContext = await browser.newContext();
  const [hostScreen, guestScreen] = [
    new EditorScreen(await hostContext.newPage()),
    new EditorScreen(await guestContext.newPage()),
  ];
  await hostScreen.open(host.sessionId);
  await guestScreen.open(host.sessionId);
  await hostScreen.caretToEndOf(1);
  await hostScreen.type("/*before*/");
  await expectConverged([hostScreen, guestScreen], (text) => text.includes("/*before*/"));

  const node = await cluster?.liveNode();
  expect(node).toBeGreaterThanOrEqual(0);
  cluster?.kill(node ?? 0);
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
  const moved = await cluster?.liveNode();
  expect(moved).not.toBe(node);
  await hostContext.close();
  await guestContext.close();
});
