import { expect, request as playwrightRequest, test } from "@playwright/test";
import { CLUSTER_URL, killNode, liveNode } from "../support/cluster";
import { createHostedSession, EditorScreen, expectConverged, signInContext } from "../support/editor";

// The cluster is the config's (support/clusterSetup.ts); this walk runs last, as it kills a node.
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
  await hostContext.close();
  await guestContext.close();
});
