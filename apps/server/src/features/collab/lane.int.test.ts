import {
  decodeLaneFrame,
  encodeLaneFrame,
  encodeUpdate,
  LANE_AWARENESS,
  LANE_CLOSE,
  LANE_SYNC,
  laneUrl,
} from "@ensemble/collab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { editorPool, rawLane, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer } from "../../../test/harness";

describe("the Yjs lane", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(DATABASES[0] ?? "embedded");
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("carries sync both ways, beside an editor that stays on socket.io", async () => {
    const { host, sessionId } = await buildSession(server.api, "lane");
    const a = await editors.open(host.token, { lane: true });
    const b = await editors.open(undefined, { lane: true });
    const old = await editors.open();
    for (const editor of [a, b, old]) await editor.join(sessionId);
    await waitFor(() => [a, b, old].every((e) => e.client.synced), 5000, "sync");
    expect(a.lane()?.open && b.lane()?.open).toBe(true);
    expect(old.lane()).toBeUndefined();

    a.file().insert(0, "// a\n");
    b.file().insert(0, "// b\n");
    old.file().insert(0, "// old\n");
    await waitFor(
      () => a.text() === b.text() && b.text() === old.text() && a.text().includes("// old"),
      5000,
      "convergence",
    );
    // Nothing reached the lane editors over socket.io once their lane was open.
    expect(a.received.get("yjsSync") ?? []).toEqual([]);
    expect(old.received.get("yjsSync")?.length).toBeGreaterThan(0);
  });

  it("opens once per ticket, and never for a made-up one", async () => {
    const { host, sessionId } = await buildSession(server.api, "lane tickets");
    const a = await editors.open(host.token);
    const joined = await a.join(sessionId);
    if (!joined.ok) throw new Error(joined.error.message);
    const first = rawLane(laneUrl(server.url, joined.data.laneTicket));
    await first.opened;
    const again = rawLane(laneUrl(server.url, joined.data.laneTicket));
    expect(await again.closed).toBe(LANE_CLOSE.badTicket);
    const forged = rawLane(laneUrl(server.url, "A".repeat(24)));
    expect(await forged.closed).toBe(LANE_CLOSE.badTicket);
    const none = rawLane(`${server.url.replace("http", "ws")}/yjs`);
    expect(await none.closed).toBe(LANE_CLOSE.badTicket);
    // Leaving the session closes its lane.
    await a.request("leaveSession", sessionId);
    expect(await first.closed).toBe(LANE_CLOSE.left);
  });

  it("refuses what socket.io refuses, and a malformed frame, changing nothing", async () => {
    const { host, sessionId } = await buildSession(server.api, "lane refusals");
    const a = await editors.open(host.token, { lane: true });
    await a.join(sessionId);
    await waitFor(() => a.client.synced);
    const guest = await editors.open();
    const joined = await guest.join(sessionId);
    if (!joined.ok) throw new Error(joined.error.message);
    const raw = rawLane(laneUrl(server.url, joined.data.laneTicket));
    await raw.opened;
    const before = a.text();

    // A root type the server alone may change: refused whole, as on socket.io.
    const forger = new Y.Doc();
    forger.getMap("files").set("evil", "x");
    raw.ws.send(encodeLaneFrame([[LANE_SYNC, encodeUpdate(Y.encodeStateAsUpdate(forger))]]));
    raw.ws.send(Uint8Array.of(7, 1, 1));
    await waitFor(() => raw.frames.filter((f) => typeof f === "string").length === 2, 5000, "refusals");
    const refusals = raw.frames.filter((f) => typeof f === "string").map((f) => JSON.parse(f));
    expect(refusals).toEqual([
      expect.objectContaining({ event: "yjsSync", code: "update_refused" }),
      expect.objectContaining({ event: "yjsSync", code: "invalid_message" }),
    ]);
    expect(a.text()).toBe(before);

    raw.ws.send("not binary");
    expect(await raw.closed).toBe(LANE_CLOSE.malformed);
  });

  it("stamps the real user on a cursor, and sends a receiver one frame per turn", async () => {
    const { host, sessionId } = await buildSession(server.api, "lane frames");
    const typist = await editors.open(undefined, { lane: true });
    const watcher = await editors.open(host.token);
    await typist.join(sessionId);
    const joined = await watcher.join(sessionId);
    if (!joined.ok) throw new Error(joined.error.message);
    await waitFor(() => typist.client.synced);
    // The watcher's own lane, raw, so its frames can be counted.
    const raw = rawLane(laneUrl(server.url, joined.data.laneTicket));
    await raw.opened;
    raw.frames.length = 0;

    for (let i = 0; i < 20; i++) {
      typist.file().insert(0, "x");
      typist.awareness.setLocalState({ user: { name: "Impostor Host" }, cursor: i });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const messages = () => raw.frames.flatMap((f) => (typeof f === "string" ? [] : decodeLaneFrame(f)));
    await waitFor(() => messages().filter(([kind]) => kind === LANE_SYNC).length === 20, 5000, "updates");
    await waitFor(
      () => messages().filter(([kind]) => kind === LANE_AWARENESS).length === 20,
      5000,
      "cursors",
    );
    // A keystroke's update and cursor reach the watcher together.
    expect(raw.frames.length).toBeLessThanOrEqual(messages().length / 2 + 2);
    const [, lastCursor] =
      messages()
        .filter(([kind]) => kind === LANE_AWARENESS)
        .at(-1) ?? [];
    expect(new TextDecoder().decode(lastCursor)).toContain('"name":"Anonymous"');
    expect(new TextDecoder().decode(lastCursor)).not.toContain("Impostor");
    raw.ws.close();
  });
});
