import { randomBytes } from "node:crypto";
import type { Joined, Presence } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../test/collabClient";
import { startTestServer, type TestServer } from "../../test/harness";
import { DomainError } from "../errors";
import { actorOf, PresenceRegistry } from "./presence";
import type { EditorSocket } from "./socket";

/** realtime/presence.ts: who is in a session, their role stored once, and the actor of a request. */
describe("presence", () => {
  let server: TestServer;
  let presence: PresenceRegistry;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres");
    // A second registry over the same socket server: it holds nothing of its own, so it sees
    // exactly what the features' registry entered.
    presence = new PresenceRegistry(server.app.io);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const onServer = (editor: TestEditor): EditorSocket => {
    const socket = server.app.io.sockets.sockets.get(editor.socket.id ?? "");
    if (!socket) throw new Error("no such socket on the server");
    return socket;
  };
  const joined = (result: Awaited<ReturnType<TestEditor["join"]>>): Joined => {
    if (!result.ok) throw new Error(result.error.message);
    return result.data;
  };
  const sorted = (ids: (string | undefined)[]) => [...ids].sort();

  /** A session with its host, and one guest (by the view link) in two tabs. */
  async function withViewerTabs() {
    const { sessionId, host, hostUser } = await editors.hostAndGuest(server.api, "presence");
    const links = await host.request("getShareLinks", { sessionId });
    if (!links.ok) throw new Error(links.error.message);
    const guestSecret = randomBytes(32).toString("hex");
    const tabs = [
      await editors.open(undefined, { guestSecret }),
      await editors.open(undefined, { guestSecret }),
    ];
    const ids = [];
    for (const tab of tabs) ids.push(joined(await tab.join({ sessionId, key: links.data.viewKey })).self.id);
    expect(ids[0]).toBe(ids[1]);
    return { sessionId, host, hostUser, tabs, viewerId: ids[0] ?? "" };
  }

  it("lists a session's sockets, one person's tabs, and who is here once per person", async () => {
    const { sessionId, host, hostUser, tabs, viewerId } = await withViewerTabs();
    const all = presence.sockets(sessionId).map((s) => s.id);
    expect(all).toHaveLength(4);
    expect(sorted(presence.socketsOf(sessionId, viewerId).map((s) => s.id))).toEqual(
      sorted(tabs.map((t) => t.socket.id)),
    );
    expect(presence.socketsOf(sessionId, hostUser.user.id).map((s) => s.id)).toEqual([host.socket.id]);
    const list = presence.list(sessionId);
    expect(list).toHaveLength(3);
    expect(list.find((p) => p.id === viewerId)).toEqual({
      id: viewerId,
      name: "Anonymous",
      isHost: false,
      isGuest: true,
      role: "viewer",
    });
    // Across the cluster (here one node), the same tabs.
    expect(sorted((await presence.fetchSocketsOf(sessionId, viewerId)).map((s) => s.id))).toEqual(
      sorted(tabs.map((t) => t.socket.id)),
    );

    // One tab closes: the person is still here, nobody is told they left.
    await tabs[0]?.close();
    await waitFor(() => presence.socketsOf(sessionId, viewerId).length === 1);
    expect(presence.isHere(sessionId, viewerId)).toBe(true);
    expect(host.received.get("participantLeft") ?? []).toEqual([]);
    // The last one closes: gone, and told once.
    await tabs[1]?.close();
    await waitFor(() => !presence.isHere(sessionId, viewerId));
    await waitFor(() => (host.received.get("participantLeft") ?? []).length > 0);
    expect(host.received.get("participantLeft")).toEqual([viewerId]);
    expect(presence.list(sessionId).map((p) => p.id)).not.toContain(viewerId);
    expect(presence.sockets("no-such-session")).toEqual([]);
  });

  it("changes a role once and every check, list and actor reads the new one", async () => {
    const { sessionId, host, tabs, viewerId } = await withViewerTabs();
    const changed = await host.request("setRole", {
      sessionId,
      participantId: viewerId,
      role: "editor",
    });
    expect(changed.ok).toBe(true);
    for (const tab of tabs) {
      const socket = onServer(tab);
      expect(socket.data.session?.role).toBe("editor");
      expect(actorOf(socket, sessionId)).toMatchObject({ role: "editor", canEdit: true, isHost: false });
    }
    expect(presence.list(sessionId).find((p) => p.id === viewerId)?.role).toBe("editor");
    // What the browsers see: the participants list, asked again over the wire.
    const tab = tabs[0] as TestEditor;
    tab.socket.emit("getParticipants", sessionId);
    await waitFor(() => tab.received.has("participantsList"));
    const listed = (tab.received.get("participantsList")?.[0] ?? []) as Presence[];
    expect(listed.find((p) => p.id === viewerId)).toMatchObject({ role: "editor", isHost: false });
    // And the change is an edit allowed now: a file made from the second tab.
    const created = await tabs[1]?.request("createFile", {
      sessionId,
      path: "src/by-viewer.js",
      kind: "file",
    });
    expect(created?.ok).toBe(true);
  });

  it("builds one actor shape for users and guests, and only for the session a socket joined", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "actors");
    const hostSocket = onServer(host);
    expect(actorOf(hostSocket, sessionId)).toEqual({
      id: hostUser.user.id,
      name: hostUser.user.name,
      userId: hostUser.user.id,
      role: "host",
      isHost: true,
      canEdit: true,
      rateKey: `user:${hostUser.user.id}`,
    });
    const guestSocket = onServer(guest);
    expect(actorOf(guestSocket, sessionId)).toEqual({
      id: guestSocket.data.identity.id,
      name: "Anonymous",
      userId: undefined,
      role: "editor",
      isHost: false,
      canEdit: true,
      rateKey: `guest:${guestSocket.handshake.address}`,
    });
    expect(() => actorOf(guestSocket, "another-session")).toThrow(DomainError);
  });
});
