import { randomBytes } from "node:crypto";
import { ROLE_MESSAGES } from "@ensemble/protocol";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEditor, type TestEditor, waitFor } from "../../test/collabClient";
import { buildSession, buildUser, startTestServer, type TestServer } from "../../test/harness";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const MEDIA = { isMuted: false, isVideoOff: true, isScreenSharing: false };
const secret = () => randomBytes(32).toString("hex");

/**
 * A session's lobby and its call are shared by the nodes (Redis tables): a waiting person on
 * one node is admitted or refused by the host on another, a call spans two nodes while both
 * serve its session, and both survive the session's node going away (a handover, a drain).
 */
describe("the lobby and the call across nodes", () => {
  let a: TestServer;
  let b: TestServer;
  let isBClosed = false;
  const editors: TestEditor[] = [];

  beforeAll(async () => {
    // Handover off: the tests put one session's people on both nodes on purpose.
    const env = { REDIS_URL, SESSION_HANDOVER_MAX: "0" };
    a = await startTestServer("postgres", { ...env, NODE_ID: "node-lobby-a" });
    b = await startTestServer("postgres", { ...env, NODE_ID: "node-lobby-b" }, { db: a.db });
    await Promise.all([a, b].map((n) => n.app.cluster.ready()));
  });

  afterAll(async () => {
    await Promise.all(editors.map((e) => e.close().catch(() => {})));
    // B shares A's database: it closes first.
    if (!isBClosed) await b.close();
    await a.close();
  });

  async function open(node: TestServer, token?: string, guestSecret?: string) {
    const editor = await openEditor(node.url, token, guestSecret ? { guestSecret } : {});
    editors.push(editor);
    return editor;
  }

  const rtcReady = (editor: TestEditor, sessionId: string) =>
    editor.request("rtcReady", { sessionId, media: MEDIA });

  it("lets the host on one node see, admit and refuse people waiting on the other", async () => {
    const { host, sessionId } = await buildSession(a.api, "lobby across");
    const onA = await open(a, host.token);
    expect((await onA.join(sessionId)).ok).toBe(true);
    expect(await onA.request("setLock", { sessionId, isLocked: true })).toMatchObject({ ok: true });

    const user = await buildUser(b.api);
    const knocking = await open(b, user.token);
    const guest = await open(b, undefined, secret());
    for (const editor of [knocking, guest])
      expect(await editor.join(sessionId)).toEqual({
        ok: false,
        error: { code: "session_locked", message: ROLE_MESSAGES.locked },
      });
    // The host, on the other node, is told who waits, in the order they came.
    const update = await onA.waitFor("lobbyUpdate", (u) => u.waiting.length === 2);
    expect(update.waiting.map((w) => w.id)).toEqual([user.user.id, expect.stringMatching(/^guest-/)]);
    const guestId = update.waiting[1]?.id ?? "";

    // A forged decision from someone waiting changes nothing.
    expect(
      await knocking.request("lobbyDecision", { sessionId, participantId: user.user.id, admit: true }),
    ).toEqual({
      ok: false,
      error: { code: "not_joined", message: "Join the session first" },
    });
    expect(
      await onA.request("lobbyDecision", { sessionId, participantId: user.user.id, admit: true }),
    ).toEqual({
      ok: true,
      data: null,
    });
    await knocking.waitFor("lobbyAdmitted");
    const joined = await knocking.join(sessionId);
    expect(joined).toMatchObject({ ok: true, data: { self: { id: user.user.id, role: "editor" } } });
    // Now in, as an editor on node B: the host's controls are still not theirs.
    expect(
      await knocking.request("lobbyDecision", { sessionId, participantId: guestId, admit: true }),
    ).toEqual({
      ok: false,
      error: { code: "forbidden", message: ROLE_MESSAGES.hostOnly },
    });

    expect(await onA.request("lobbyDecision", { sessionId, participantId: guestId, admit: false })).toEqual({
      ok: true,
      data: null,
    });
    expect(await guest.waitFor("lobbyRefused")).toEqual({ sessionId, message: ROLE_MESSAGES.refused });
    await onA.waitFor("lobbyUpdate", (u) => u.waiting.length === 0);
    // Decided once: the other node cannot decide again.
    const onB = await open(b, host.token);
    expect((await onB.join(sessionId)).ok).toBe(true);
    expect(await onB.request("lobbyDecision", { sessionId, participantId: guestId, admit: true })).toEqual({
      ok: false,
      error: { code: "not_found", message: ROLE_MESSAGES.notWaiting },
    });
  });

  it("keeps one call across two nodes: each sees the other and signalling reaches them", async () => {
    const { host, sessionId } = await buildSession(a.api, "call across");
    const x = await open(a, host.token);
    const y = await open(b, undefined, secret());
    for (const editor of [x, y]) expect((await editor.join(sessionId)).ok).toBe(true);

    const first = await rtcReady(x, sessionId);
    if (!first.ok) throw new Error(first.error.message);
    expect(first.data.peers).toEqual([]);
    const second = await rtcReady(y, sessionId);
    if (!second.ok) throw new Error(second.error.message);
    expect(second.data.peers.map((p) => p.peerId)).toEqual([first.data.peerId]);
    const told = await x.waitFor("rtcNewParticipant");
    expect(told.peer.peerId).toBe(second.data.peerId);

    y.send("rtcOffer", { sessionId, receiverId: first.data.peerId, sdp: "v=0 offer" });
    const offer = await x.waitFor("rtcOffer");
    expect(offer).toEqual({ sessionId, senderId: second.data.peerId, sdp: "v=0 offer" });
    x.send("audioToggled", { sessionId, isMuted: true });
    await y.waitFor("audioToggled", (e) => e.peerId === first.data.peerId && e.isMuted);

    // A later joiner on either node sees the mute, and the one who leaves is gone for everyone.
    const z = await open(b, undefined, secret());
    expect((await z.join(sessionId)).ok).toBe(true);
    const third = await rtcReady(z, sessionId);
    if (!third.ok) throw new Error(third.error.message);
    expect(third.data.peers.find((p) => p.peerId === first.data.peerId)?.isMuted).toBe(true);
    expect(await x.request("rtcLeave", { sessionId })).toMatchObject({ ok: true });
    for (const editor of [y, z])
      await editor.waitFor("rtcParticipantLeft", (e) => e.peerId === first.data.peerId);
    y.send("rtcOffer", { sessionId, receiverId: first.data.peerId, sdp: "v=0 late" });
    await y.waitFor("socketError", (e) => e.event === "rtcOffer" && e.code === "not_found");
  });

  it("keeps the lobby and the call when the session's node goes away: the new node takes both over", async () => {
    const { host, sessionId } = await buildSession(b.api, "handed over");
    const guestSecret = secret();
    const editorUser = await buildUser(b.api);
    const hostOnOld = await open(b, host.token);
    const editorOnOld = await open(b, editorUser.token);
    for (const editor of [hostOnOld, editorOnOld]) expect((await editor.join(sessionId)).ok).toBe(true);
    const before = await Promise.all([rtcReady(hostOnOld, sessionId), rtcReady(editorOnOld, sessionId)]);
    const oldPeers = before.map((ack) => (ack.ok ? ack.data.peerId : ""));
    expect(await hostOnOld.request("setLock", { sessionId, isLocked: true })).toMatchObject({ ok: true });
    const waiter = await open(b, undefined, guestSecret);
    expect((await waiter.join(sessionId)).ok).toBe(false);
    const waitingId = (await hostOnOld.waitFor("lobbyUpdate", (u) => u.waiting.length === 1)).waiting[0]?.id;

    // Node B goes (drained: it closes its sockets); everyone comes back on A, as the balancer sends them.
    await b.close();
    isBClosed = true;
    const hostOnNew = await open(a, host.token);
    const back = await hostOnNew.join(sessionId);
    // The new node lists who was waiting, though they have not come back yet.
    expect(back).toMatchObject({
      ok: true,
      data: { isLocked: true, waiting: [{ id: waitingId, isGuest: true }] },
    });
    // And admits them while they are away: they walk straight in when they come back.
    expect(
      await hostOnNew.request("lobbyDecision", { sessionId, participantId: waitingId ?? "", admit: true }),
    ).toEqual({ ok: true, data: null });
    const waiterOnNew = await open(a, undefined, guestSecret);
    expect(await waiterOnNew.join(sessionId)).toMatchObject({ ok: true, data: { self: { id: waitingId } } });

    // The call is made again on A: the peers of node B are gone, the new ones reach each other.
    const hostCall = await rtcReady(hostOnNew, sessionId);
    if (!hostCall.ok) throw new Error(hostCall.error.message);
    expect(hostCall.data.peers.filter((p) => oldPeers.includes(p.peerId))).toEqual([]);
    const editorOnNew = await open(a, editorUser.token);
    expect((await editorOnNew.join(sessionId)).ok).toBe(true);
    const editorCall = await rtcReady(editorOnNew, sessionId);
    if (!editorCall.ok) throw new Error(editorCall.error.message);
    expect(editorCall.data.peers.map((p) => p.peerId)).toEqual([hostCall.data.peerId]);
    await hostOnNew.waitFor("rtcNewParticipant", (e) => e.peer.peerId === editorCall.data.peerId);
    editorOnNew.send("rtcAnswer", { sessionId, receiverId: hostCall.data.peerId, sdp: "v=0 answer" });
    await hostOnNew.waitFor("rtcAnswer", (e) => e.senderId === editorCall.data.peerId);
    await waitFor(() => a.app.cluster.ownership.owns(sessionId), 10_000, "node A's lease");
  });

  it("drops the lobby's and the call's rows of a node that died, and tells who stays", async () => {
    const { host, sessionId } = await buildSession(a.api, "dead node");
    const hostOnA = await open(a, host.token);
    expect((await hostOnA.join(sessionId)).ok).toBe(true);
    expect(await hostOnA.request("setLock", { sessionId, isLocked: true })).toMatchObject({ ok: true });
    const inCall = await rtcReady(hostOnA, sessionId);
    if (!inCall.ok) throw new Error(inCall.error.message);
    // What a node that died mid-way leaves behind: rows nobody renews any more.
    const redis = new Redis(REDIS_URL);
    const past = Date.now() - 60_000;
    const ghost = {
      peerId: "00000000-0000-4000-8000-000000000000",
      participantId: "guest-ghost",
      name: "Ghost",
    };
    await redis.hset(
      `ensemble:call:${sessionId}`,
      ghost.peerId,
      JSON.stringify({ peer: { ...ghost, ...MEDIA }, socketId: "gone-socket", seenAt: past }),
    );
    await redis.hset(
      `ensemble:lobby:${sessionId}`,
      "guest-ghost",
      JSON.stringify({
        entry: { id: "guest-ghost", name: "Ghost", isGuest: true },
        role: "editor",
        since: past,
        seenAt: past,
      }),
    );
    redis.disconnect();
    // The host is told the ghost left the call, and a newcomer never sees it there or waiting.
    await hostOnA.waitFor("rtcParticipantLeft", (e) => e.peerId === ghost.peerId, 10_000);
    const other = await open(a, undefined, secret());
    expect((await other.join(sessionId)).ok).toBe(false);
    const waiting = await hostOnA.waitFor("lobbyUpdate", (u) => u.waiting.length === 1);
    expect(waiting.waiting.map((w) => w.name)).toEqual(["Anonymous"]);
    expect(
      await hostOnA.request("lobbyDecision", { sessionId, participantId: "guest-ghost", admit: true }),
    ).toEqual({ ok: false, error: { code: "not_found", message: ROLE_MESSAGES.notWaiting } });
  });
});
