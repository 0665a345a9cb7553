import { randomBytes } from "node:crypto";
import {
  type Ack,
  type Joined,
  type LobbyUpdate,
  ROLE_MESSAGES,
  type RoleChanged,
  type SessionNotice,
  type ShareKeys,
  STARTER_CODE,
} from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AckedEvent, editorPool, emitAck, type TestEditor, waitFor } from "../../../test/collabClient";
import { buildUser, DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const readOnly = { ok: false, error: { code: "read_only", message: ROLE_MESSAGES.readOnly } };
const hostOnly = { ok: false, error: { code: "forbidden", message: ROLE_MESSAGES.hostOnly } };

/** A guest's secret as browsers keep it: 256 random bits in hex. */
const secret = () => randomBytes(32).toString("hex");
const events = <T>(editor: TestEditor, name: string) => (editor.received.get(name) ?? []) as T[];
const refusals = (editor: TestEditor) =>
  events<{ event: string; code: string; message: string }>(editor, "socketError");

function joined(result: Ack<Joined>): Joined {
  if (!result.ok) throw new Error(`join refused: ${result.error.code} ${result.error.message}`);
  return result.data;
}

/** DESIGN decision 17: roles, enforced on the server against forged events from raw clients. */
describe.each(DATABASES)("roles on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const serverText = (sessionId: string) =>
    server.app.collab.workspace.files(sessionId)?.find((f) => f.path === "src/main.js")?.content;

  async function linksOf(host: TestEditor, sessionId: string): Promise<ShareKeys> {
    const links = await host.request("getShareLinks", { sessionId });
    if (!links.ok) throw new Error(links.error.message);
    return links.data;
  }

  /** A session with its host, a guest editor, and a guest viewer who came by the view link. */
  async function withViewer(options: { lane?: boolean } = {}) {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "roles");
    const { viewKey } = await linksOf(host, sessionId);
    const viewer = await editors.open(undefined, { guestSecret: secret(), lane: options.lane });
    const self = joined(await viewer.join({ sessionId, key: viewKey })).self;
    await waitFor(() => viewer.client.synced && (!options.lane || viewer.lane() !== undefined), 5000, "sync");
    return { sessionId, host, guest, hostUser, viewer, viewerId: self.id, self };
  }

  it("lets a viewer see everything live and refuses every write they forge", async () => {
    const { sessionId, host, guest, viewer, self } = await withViewer();
    expect(self.role).toBe("viewer");
    // Live: the editor's typing reaches the viewer.
    guest.file().insert(0, "from the editor\n");
    await waitFor(() => viewer.text().startsWith("from the editor\n"), 5000, "the editor's edit");

    // A Yjs update from the viewer: refused, applied nowhere.
    viewer.file().insert(0, "forged\n");
    await waitFor(() => refusals(viewer).some((r) => r.event === "yjsSync"), 5000, "the refusal");
    expect(refusals(viewer)[0]).toEqual({
      event: "yjsSync",
      code: "read_only",
      message: ROLE_MESSAGES.readOnly,
    });
    expect(serverText(sessionId)).toBe(`from the editor\n${STARTER_CODE.javascript}`);

    // Awareness still passes: the host sees the viewer's cursor state.
    viewer.awareness.setLocalStateField("cursor", { line: 1 });
    await waitFor(() => host.awareness.getStates().has(viewer.doc.clientID), 5000, "the viewer's awareness");

    // Every other write, each refused with read_only and changing nothing.
    const writes: [AckedEvent, unknown][] = [
      ["createFile", { sessionId, path: "src/new.js", kind: "file" }],
      ["renamePath", { sessionId, from: "src/main.js", to: "src/moved.js" }],
      ["deletePath", { sessionId, path: "src/main.js" }],
      ["createFile", { sessionId, path: "src/offline.js", kind: "file", id: "f-AAAAAAAAAAAAAAAA" }],
      [
        "restorePath",
        {
          sessionId,
          path: "src/x.js",
          files: [{ id: "f-AAAAAAAAAAAAAAAA", path: "src/x.js", bytes: 0 }],
          folders: [],
        },
      ],
      ["languageUpdate", { sessionId, language: "python" }],
      ["runCode", { sessionId, file: "src/main.js" }],
      ["createPR", { sessionId, title: "forged" }],
      ["terminalCommand", { sessionId, command: "run" }],
      ["terminalCommand", { sessionId, command: "clear" }],
      ["terminalCommand", { sessionId, command: "git status" }],
      ["terminalCommand", { sessionId, command: "pr create forged" }],
    ];
    for (const [event, payload] of writes)
      expect(await emitAck(viewer.socket, event, payload)).toEqual(readOnly);
    expect(await viewer.request("terminalCommand", { sessionId, command: "pr list" })).toEqual({
      ok: true,
      data: null,
    });
    // Git is the host's alone, as before.
    const git = await viewer.request("gitOperation", {
      sessionId,
      operation: { op: "commit", message: "x" },
    });
    expect(git.ok ? null : git.error.code).toBe("forbidden");
    expect(server.app.collab.workspace.files(sessionId)?.map((f) => f.path)).toEqual(["src/main.js"]);
    expect(events(host, "languageUpdate")).toEqual([]);
  });

  it("refuses a viewer's updates over the Yjs lane too", async () => {
    const { sessionId, viewer } = await withViewer({ lane: true });
    viewer.file().insert(0, "over the lane\n");
    await waitFor(() => events(viewer, "laneRefusal").length > 0, 5000, "the lane's refusal");
    expect(events(viewer, "laneRefusal")[0]).toEqual({
      event: "yjsSync",
      code: "read_only",
      message: ROLE_MESSAGES.readOnly,
    });
    expect(serverText(sessionId)).toBe(STARTER_CODE.javascript);
  });

  it("refuses every host control from an editor and from a viewer", async () => {
    const { sessionId, guest, viewer, viewerId, hostUser } = await withViewer();
    const controls: [AckedEvent, unknown][] = [
      ["setRole", { sessionId, participantId: viewerId, role: "editor" }],
      ["transferHost", { sessionId, participantId: viewerId }],
      ["removeParticipant", { sessionId, participantId: hostUser.user.id }],
      ["setLock", { sessionId, isLocked: true }],
      ["lobbyDecision", { sessionId, participantId: viewerId, admit: true }],
      ["getShareLinks", { sessionId }],
    ];
    for (const sender of [guest, viewer]) {
      for (const [event, payload] of controls)
        expect(await emitAck(sender.socket, event, payload)).toEqual(hostOnly);
    }
    const session = await server.api.get(`/api/session/${sessionId}`, hostUser.token);
    expect((session.body.participants as { role: string }[]).map((p) => p.role)).toEqual(["host"]);
  });

  it("changes a role live: the promoted viewer's next edit is applied, a demoted editor's refused", async () => {
    const { sessionId, host, guest, viewer, viewerId } = await withViewer();
    const promoted = await host.request("setRole", {
      sessionId,
      participantId: viewerId,
      role: "editor",
    });
    expect(promoted).toEqual({ ok: true, data: { sessionId, participantId: viewerId, role: "editor" } });
    // Everyone is told, the viewer included, on the same connection.
    await waitFor(() => events(guest, "roleChanged").length > 0 && events(viewer, "roleChanged").length > 0);
    expect(events<RoleChanged>(viewer, "roleChanged")).toEqual([promoted.ok && promoted.data]);
    viewer.file().insert(0, "now editing\n");
    await waitFor(() => host.text().startsWith("now editing\n"), 5000, "the promoted viewer's edit");

    const guestId = joined(await guest.join(sessionId)).self.id;
    await host.request("setRole", { sessionId, participantId: guestId, role: "viewer" });
    guest.file().insert(0, "demoted\n");
    await waitFor(() => refusals(guest).some((r) => r.code === "read_only"), 5000, "the refusal");
    expect(serverText(sessionId)?.startsWith("now editing\n")).toBe(true);
    // The participants list shows the new roles.
    guest.send("getParticipants", sessionId);
    await waitFor(() => events(guest, "participantsList").length > 0);
    const list = events<{ id: string; role: string }[]>(guest, "participantsList")[0] ?? [];
    expect(Object.fromEntries(list.map((p) => [p.id, p.role]))).toMatchObject({
      [viewerId]: "editor",
      [guestId]: "viewer",
    });
    // The host role is not given this way, and nobody unknown gets one.
    expect(
      (await host.request("setRole", { sessionId, participantId: "guest-nobody", role: "editor" })).ok,
    ).toBe(false);
  });

  it("keeps the links apart: the view key makes viewers, and then the bare id no longer makes editors", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "links");
    // Before any view link, the bare id makes editors (the spec's flows).
    const early = await editors.open(undefined, { guestSecret: secret() });
    expect(joined(await early.join(sessionId)).self.role).toBe("editor");
    const { editKey, viewKey } = await linksOf(host, sessionId);
    expect(editKey).not.toBe(viewKey);
    expect(await linksOf(host, sessionId)).toEqual({ editKey, viewKey });

    const stripped = await editors.open(undefined, { guestSecret: secret() });
    expect(joined(await stripped.join(sessionId)).self.role).toBe("viewer");
    const invited = await editors.open(undefined, { guestSecret: secret() });
    expect(joined(await invited.join({ sessionId, key: editKey })).self.role).toBe("editor");
    // A link decides a newcomer's role only: the host's word sticks for everyone stored.
    expect(joined(await stripped.join({ sessionId, key: editKey })).self.role).toBe("viewer");
    expect(joined(await early.join({ sessionId, key: viewKey })).self.role).toBe("editor");
    const forged = await editors.open();
    expect(await forged.join({ sessionId, key: "not-the-key" })).toEqual({
      ok: false,
      error: { code: "invalid_link", message: ROLE_MESSAGES.invalidLink },
    });
    // The REST join follows the same rule: a new account by the bare id is a viewer now.
    const user = await buildUser(server.api);
    expect(
      (await server.api.post("/api/session/join", { session_id: sessionId }, user.token)).body.role,
    ).toBe("viewer");
  });

  it("hands the host role over: exactly one host, the old one an editor", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "transfer");
    const guestId = joined(await guest.join(sessionId)).self.id;
    expect(await host.request("transferHost", { sessionId, participantId: guestId })).toEqual({
      ok: false,
      error: { code: "forbidden", message: ROLE_MESSAGES.hostToGuest },
    });
    const next = await buildUser(server.api);
    const heir = await editors.open(next.token);
    joined(await heir.join(sessionId));
    const moved = await host.request("transferHost", { sessionId, participantId: next.user.id });
    expect(moved).toEqual({ ok: true, data: { sessionId, participantId: next.user.id, role: "host" } });
    const session = await server.api.get(`/api/session/${sessionId}`, next.token);
    const roles = (session.body.participants as { user_id: string; role: string }[]).map((p) => [
      p.user_id,
      p.role,
    ]);
    expect(roles).toEqual([
      [hostUser.user.id, "editor"],
      [next.user.id, "host"],
    ]);
    // In place, no reconnect: the old host's controls are refused, the new host's work.
    expect(await host.request("setLock", { sessionId, isLocked: true })).toEqual(hostOnly);
    expect(await heir.request("setLock", { sessionId, isLocked: false })).toEqual({
      ok: true,
      data: { sessionId, isLocked: false },
    });
    host.file().insert(0, "old host edits\n");
    await waitFor(() => heir.text().startsWith("old host edits\n"), 5000, "the old host's edit");
  });

  it("removes a participant: disconnected with the reason, back only while the session is unlocked", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "removal");
    const removedSecret = secret();
    const removable = await editors.open(undefined, { guestSecret: removedSecret });
    const removedId = joined(await removable.join(sessionId)).self.id;
    expect(await guest.request("removeParticipant", { sessionId, participantId: removedId })).toEqual(
      hostOnly,
    );
    expect(await host.request("removeParticipant", { sessionId, participantId: removedId })).toEqual({
      ok: true,
      data: null,
    });
    await waitFor(() => !removable.socket.connected, 5000, "the disconnect");
    expect(events<SessionNotice>(removable, "removedFromSession")).toEqual([
      { sessionId, message: ROLE_MESSAGES.removed },
    ]);
    // Unlocked: the link lets them in again.
    const back = await editors.open(undefined, { guestSecret: removedSecret });
    expect(joined(await back.join(sessionId)).self.id).toBe(removedId);
    await host.request("removeParticipant", { sessionId, participantId: removedId });
    await waitFor(() => !back.socket.connected, 5000, "the second disconnect");
    // Locked: refused outright, not even the lobby.
    await host.request("setLock", { sessionId, isLocked: true });
    const again = await editors.open(undefined, { guestSecret: removedSecret });
    expect(await again.join(sessionId)).toEqual({
      ok: false,
      error: { code: "removed", message: ROLE_MESSAGES.removedLocked },
    });
    expect(events(host, "lobbyUpdate").every((u) => (u as LobbyUpdate).waiting.length === 0)).toBe(true);
    // A removed account is refused by the Join dialog's REST join too while locked.
    const member = await buildUser(server.api);
    await host.request("setLock", { sessionId, isLocked: false });
    expect((await server.api.post("/api/session/join", { session_id: sessionId }, member.token)).status).toBe(
      200,
    );
    await host.request("removeParticipant", { sessionId, participantId: member.user.id });
    await host.request("setLock", { sessionId, isLocked: true });
    const refusedJoin = await server.api.post("/api/session/join", { session_id: sessionId }, member.token);
    expect(refusedJoin.status).toBe(403);
    expect(refusedJoin.body).toEqual({ code: "removed", message: ROLE_MESSAGES.removedLocked });
    // The host cannot remove themselves.
    const hostId = joined(await host.join(sessionId)).self.id;
    expect((await host.request("removeParticipant", { sessionId, participantId: hostId })).ok).toBe(false);
  });

  it("holds newcomers in the lobby while locked; the host admits or refuses each", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "lobby");
    const locked = await host.request("setLock", { sessionId, isLocked: true });
    expect(locked).toEqual({ ok: true, data: { sessionId, isLocked: true } });
    await waitFor(() => events(guest, "lockState").length > 0, 5000, "lockState");

    const knocking = await editors.open(undefined, { guestSecret: secret() });
    expect(await knocking.join(sessionId)).toEqual({
      ok: false,
      error: { code: "session_locked", message: ROLE_MESSAGES.locked },
    });
    // Nothing of the session reaches someone waiting.
    expect(knocking.text()).toBe("");
    await waitFor(() => events<LobbyUpdate>(host, "lobbyUpdate").some((u) => u.waiting.length === 1), 5000);
    const waiting = events<LobbyUpdate>(host, "lobbyUpdate").at(-1)?.waiting ?? [];
    expect(waiting).toEqual([{ id: expect.stringMatching(/^guest-/), name: "Anonymous", isGuest: true }]);
    const knockerId = waiting[0]?.id ?? "";
    // Only the host decides; the editor's forged decision changes nothing.
    expect(
      await guest.request("lobbyDecision", { sessionId, participantId: knockerId, admit: true }),
    ).toEqual(hostOnly);
    expect(events(knocking, "lobbyAdmitted")).toEqual([]);
    expect(await host.request("lobbyDecision", { sessionId, participantId: knockerId, admit: true })).toEqual(
      {
        ok: true,
        data: null,
      },
    );
    await waitFor(() => events(knocking, "lobbyAdmitted").length > 0, 5000, "lobbyAdmitted");
    const admitted = joined(await knocking.join(sessionId));
    expect(admitted.self.role).toBe("editor");
    expect(admitted.isLocked).toBe(true);

    const turnedAway = await editors.open(undefined, { guestSecret: secret() });
    expect((await turnedAway.join(sessionId)).ok).toBe(false);
    await waitFor(() =>
      events<LobbyUpdate>(host, "lobbyUpdate").some(
        (u) => u.waiting.length === 1 && u.waiting[0]?.id !== knockerId,
      ),
    );
    const awayId = events<LobbyUpdate>(host, "lobbyUpdate").at(-1)?.waiting[0]?.id ?? "";
    await host.request("lobbyDecision", { sessionId, participantId: awayId, admit: false });
    await waitFor(() => events(turnedAway, "lobbyRefused").length > 0, 5000, "lobbyRefused");
    expect(events(turnedAway, "lobbyRefused")).toEqual([{ sessionId, message: ROLE_MESSAGES.refused }]);
    // Knocking again (a reload): turned away at once, and the host is not asked again.
    const again = await turnedAway.join(sessionId);
    expect(again.ok ? null : again.error).toEqual({ code: "forbidden", message: ROLE_MESSAGES.refused });
    // A deciding on someone not waiting is refused.
    expect(
      (await host.request("lobbyDecision", { sessionId, participantId: "guest-x", admit: true })).ok,
    ).toBe(false);

    // A returning participant enters while locked; unlocking lets everyone waiting in.
    const late = await editors.open();
    const guestId = joined(await guest.join(sessionId)).self.id;
    expect(guestId).toMatch(/^guest-/);
    expect((await late.join(sessionId)).ok).toBe(false);
    // The host's list holds the newcomer alone: the one turned away did not come back into it.
    await waitFor(() => events<LobbyUpdate>(host, "lobbyUpdate").at(-1)?.waiting.length === 1, 5000);
    expect(
      events<LobbyUpdate>(host, "lobbyUpdate")
        .at(-1)
        ?.waiting.map((w) => w.id),
    ).not.toContain(awayId);
    await host.request("setLock", { sessionId, isLocked: false });
    await waitFor(() => events(late, "lobbyAdmitted").length > 0, 5000, "admitted on unlock");
    expect(events(turnedAway, "lobbyAdmitted")).toEqual([]);
    expect(joined(await late.join(sessionId)).self.role).toBe("editor");
    // The REST join of a locked session only says to wait; it admits nobody.
    await host.request("setLock", { sessionId, isLocked: true });
    const user = await buildUser(server.api);
    const rest = await server.api.post("/api/session/join", { session_id: sessionId }, user.token);
    expect(rest.body.message).toBe(ROLE_MESSAGES.locked);
    const view = await server.api.get(`/api/session/${sessionId}`, user.token);
    expect(view.body.participants).toBeUndefined();
  });
});
