import { type Ack, CALL_LIMITS, CALL_MESSAGES, type MediaState, type RtcJoined } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../../test/collabClient";
import { buildSession, buildUser, startTestServer, type TestServer } from "../../../test/harness";

const MEDIA: MediaState = { isMuted: false, isVideoOff: false, isScreenSharing: false };
const received = <T>(editor: TestEditor, event: string) => (editor.received.get(event) ?? []) as T[];
const refusals = (editor: TestEditor) =>
  received<{ event: string; code: string; message: string }>(editor, "socketError");

describe("call signalling", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer("embedded", {
      ICE_SERVERS: '[{"urls":"stun:stun.example.test:3478"}]',
      TURN_URLS: "turn:turn.example.test:3478, turns:turn.example.test:443?transport=tcp",
      TURN_SECRET: "a-shared-secret-for-coturn",
      TURN_TTL_SECONDS: "600",
    });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const ready = (editor: TestEditor, sessionId: string, media = MEDIA) =>
    new Promise<Ack<RtcJoined>>((resolve) => editor.socket.emit("rtcReady", { sessionId, media }, resolve));

  async function joined(sessionId: string, token?: string) {
    const editor = await editors.open(token);
    await editor.join(sessionId);
    return editor;
  }

  async function inCall(sessionId: string, token?: string) {
    const editor = await joined(sessionId, token);
    const ack = await ready(editor, sessionId);
    if (!ack.ok) throw new Error(ack.error.message);
    return { editor, peerId: ack.data.peerId, ack: ack.data };
  }

  it("joins a call with a fresh peer id, the ICE servers and who is there; the others are told", async () => {
    const { host, sessionId } = await buildSession(server.api, "call");
    const outsider = await editors.open();
    expect(await ready(outsider, sessionId)).toMatchObject({ ok: false, error: { code: "not_joined" } });

    const a = await inCall(sessionId, host.token);
    expect(a.ack.peers).toEqual([]);
    // The STUN server as configured, then the relay with credentials of this participant's own.
    const joinedAt = Math.floor(Date.now() / 1000);
    expect(a.ack.iceServers).toEqual([
      { urls: "stun:stun.example.test:3478" },
      {
        urls: ["turn:turn.example.test:3478", "turns:turn.example.test:443?transport=tcp"],
        username: expect.stringMatching(new RegExp(`^\\d+:${host.user.id}$`)),
        credential: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
      },
    ]);
    const expiry = Number(a.ack.iceServers[1]?.username?.split(":")[0]);
    expect(expiry - joinedAt).toBeGreaterThanOrEqual(599);
    expect(expiry - joinedAt).toBeLessThanOrEqual(601);
    const b = await inCall(sessionId);
    const [, relay] = b.ack.iceServers;
    expect(relay?.username).toMatch(/^\d+:guest/);
    expect(relay?.credential).not.toBe(a.ack.iceServers[1]?.credential);
    expect(b.peerId).not.toBe(a.peerId);
    expect(b.ack.peers).toEqual([
      { ...MEDIA, peerId: a.peerId, participantId: host.user.id, name: host.user.name },
    ]);
    await waitFor(() => received(a.editor, "rtcNewParticipant").length === 1);
    expect(received(a.editor, "rtcNewParticipant")[0]).toMatchObject({
      sessionId,
      peer: { peerId: b.peerId, name: "Anonymous", participantId: expect.stringMatching(/^guest/) },
    });
  });

  it("relays offers, answers, candidates and requests to one peer, stamped with the real sender", async () => {
    const { host, sessionId } = await buildSession(server.api, "relay");
    const a = await inCall(sessionId, host.token);
    const b = await inCall(sessionId);
    const c = await inCall(sessionId);
    // A forged senderId is not part of the schema, and the server stamps the real one anyway.
    a.editor.socket.emit("rtcOffer", {
      sessionId,
      receiverId: b.peerId,
      sdp: "v=0 offer",
      senderId: c.peerId,
    });
    b.editor.socket.emit("rtcAnswer", { sessionId, receiverId: a.peerId, sdp: "v=0 answer" });
    const candidate = {
      candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host",
      sdpMid: "0",
      sdpMLineIndex: 0,
    };
    a.editor.socket.emit("rtcIceCandidate", { sessionId, receiverId: b.peerId, candidate });
    a.editor.socket.emit("rtcIceCandidate", { sessionId, receiverId: b.peerId, candidate: null });
    c.editor.socket.emit("rtcRequestConnection", { sessionId, targetId: a.peerId });
    await waitFor(
      () =>
        received(b.editor, "rtcIceCandidate").length === 2 &&
        received(a.editor, "rtcRequestConnection").length === 1,
    );
    expect(received(b.editor, "rtcOffer")).toEqual([{ sessionId, senderId: a.peerId, sdp: "v=0 offer" }]);
    expect(received(a.editor, "rtcAnswer")).toEqual([{ sessionId, senderId: b.peerId, sdp: "v=0 answer" }]);
    expect(received(b.editor, "rtcIceCandidate")).toEqual([
      { sessionId, senderId: a.peerId, candidate },
      { sessionId, senderId: a.peerId, candidate: null },
    ]);
    expect(received(a.editor, "rtcRequestConnection")).toEqual([{ sessionId, requesterId: c.peerId }]);
    // Nothing reached the peer nobody wrote to.
    expect(received(c.editor, "rtcOffer")).toEqual([]);
    expect(received(c.editor, "rtcIceCandidate")).toEqual([]);
  });

  it("refuses to reach into another session's call, from outside a call, or past the size caps", async () => {
    const first = await buildSession(server.api, "victim");
    const second = await buildSession(server.api, "attacker");
    const victim = await inCall(first.sessionId, first.host.token);
    const attacker = await inCall(second.sessionId, second.host.token);
    // Naming the victim's session: the attacker's socket never joined it.
    attacker.editor.socket.emit("rtcOffer", {
      sessionId: first.sessionId,
      receiverId: victim.peerId,
      sdp: "v=0",
    });
    // Naming its own session with the victim's peer id: no such peer in this call.
    attacker.editor.socket.emit("rtcOffer", {
      sessionId: second.sessionId,
      receiverId: victim.peerId,
      sdp: "v=0",
    });
    // In the session but not in its call.
    const lurker = await joined(first.sessionId);
    lurker.socket.emit("rtcIceCandidate", {
      sessionId: first.sessionId,
      receiverId: victim.peerId,
      candidate: null,
    });
    lurker.socket.emit("audioToggled", { sessionId: first.sessionId, isMuted: true });
    const me = await inCall(first.sessionId);
    me.editor.socket.emit("rtcOffer", {
      sessionId: first.sessionId,
      receiverId: victim.peerId,
      sdp: "x".repeat(CALL_LIMITS.sdpChars + 1),
    });
    me.editor.socket.emit("rtcIceCandidate", {
      sessionId: first.sessionId,
      receiverId: victim.peerId,
      candidate: { candidate: "c".repeat(CALL_LIMITS.candidateChars + 1) },
    });
    await waitFor(
      () =>
        refusals(attacker.editor).length === 2 &&
        refusals(lurker).length === 2 &&
        refusals(me.editor).length === 2,
    );
    expect(refusals(attacker.editor).map((r) => r.code)).toEqual(["not_joined", "not_found"]);
    expect(refusals(attacker.editor)[1]?.message).toBe(CALL_MESSAGES.peerGone);
    expect(refusals(lurker)).toEqual([
      { event: "rtcIceCandidate", code: "forbidden", message: CALL_MESSAGES.notInCall },
      { event: "audioToggled", code: "forbidden", message: CALL_MESSAGES.notInCall },
    ]);
    expect(refusals(me.editor).map((r) => [r.event, r.code])).toEqual([
      ["rtcOffer", "invalid_payload"],
      ["rtcIceCandidate", "invalid_payload"],
    ]);
    expect(received(victim.editor, "rtcOffer")).toEqual([]);
    expect(received(victim.editor, "rtcIceCandidate")).toEqual([]);
    expect(received(victim.editor, "audioToggled")).toEqual([]);
  });

  it("holds six people; the seventh is told the call is full, and gets in once someone leaves", async () => {
    const { host, sessionId } = await buildSession(server.api, "full");
    const six = [await inCall(sessionId, host.token)];
    for (let i = 1; i < CALL_LIMITS.maxPeers; i++) six.push(await inCall(sessionId));
    const seventh = await joined(sessionId);
    expect(await ready(seventh, sessionId)).toEqual({
      ok: false,
      error: { code: "call_full", message: CALL_MESSAGES.full },
    });
    const leaving = six[5];
    if (!leaving) throw new Error("six peers expected");
    await new Promise((resolve) => leaving.editor.socket.emit("rtcLeave", { sessionId }, resolve));
    const first = six[0]?.editor;
    if (!first) throw new Error("six peers expected");
    await waitFor(() => received(first, "rtcParticipantLeft").length === 1);
    expect(received(first, "rtcParticipantLeft")).toEqual([{ sessionId, peerId: leaving.peerId }]);
    expect(await ready(seventh, sessionId)).toMatchObject({ ok: true });
  });

  it("drops a peer that disconnects or leaves the session, and shows media changes to everyone", async () => {
    const { host, sessionId } = await buildSession(server.api, "media");
    const member = await buildUser(server.api);
    const a = await inCall(sessionId, host.token);
    const b = await inCall(sessionId, member.token);
    b.editor.socket.emit("audioToggled", { sessionId, isMuted: true });
    b.editor.socket.emit("videoToggled", { sessionId, isVideoOff: true });
    b.editor.socket.emit("screenSharingStarted", { sessionId });
    await waitFor(() => received(a.editor, "screenSharingStarted").length === 1);
    const stamp = { sessionId, userId: member.user.id, peerId: b.peerId };
    expect(received(a.editor, "audioToggled")).toEqual([{ ...stamp, isMuted: true }]);
    expect(received(a.editor, "videoToggled")).toEqual([{ ...stamp, isVideoOff: true }]);
    expect(received(a.editor, "screenSharingStarted")).toEqual([stamp]);
    // A late joiner reads the current media of everyone.
    const late = await inCall(sessionId);
    expect(late.ack.peers.find((p) => p.peerId === b.peerId)).toMatchObject({
      isMuted: true,
      isVideoOff: true,
      isScreenSharing: true,
    });

    await new Promise((resolve) => late.editor.socket.emit("leaveSession", sessionId, resolve));
    b.editor.socket.disconnect();
    await waitFor(() => received(a.editor, "rtcParticipantLeft").length === 2);
    expect(received(a.editor, "rtcParticipantLeft")).toEqual(
      expect.arrayContaining([
        { sessionId, peerId: late.peerId },
        { sessionId, peerId: b.peerId },
      ]),
    );
  });

  it("rate-limits a socket that floods the signalling", async () => {
    const { host, sessionId } = await buildSession(server.api, "flood");
    const a = await inCall(sessionId, host.token);
    const b = await inCall(sessionId);
    for (let i = 0; i <= CALL_LIMITS.messagesPerWindow; i++)
      b.editor.socket.emit("rtcIceCandidate", { sessionId, receiverId: a.peerId, candidate: null });
    await waitFor(() => refusals(b.editor).length === 1, 10_000, "the refusal");
    expect(refusals(b.editor)).toEqual([
      { event: "rtcIceCandidate", code: "rate_limited", message: CALL_MESSAGES.tooMany },
    ]);
    await waitFor(() => received(a.editor, "rtcIceCandidate").length === CALL_LIMITS.messagesPerWindow);
  });
});
