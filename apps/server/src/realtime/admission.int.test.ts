import type { Ack } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../test/collabClient";
import { startTestServer, type TestServer } from "../../test/harness";
import { sessionRoom } from "./session";

/** socket.io's reserved names, which its client refuses to send: we send them as raw packets. */
const RESERVED = ["disconnect", "connect", "connect_error", "disconnecting", "newListener", "removeListener"];

/** Sends an event packet as it is, bypassing the client's own checks (as an attacker would). */
function sendRaw(socket: Socket, data: unknown[]) {
  (socket as unknown as { packet(p: { type: number; data: unknown[] }): void }).packet({ type: 2, data });
}

const emitAck = (socket: Socket, event: string, payload: unknown) =>
  new Promise<Ack<unknown>>((resolve) =>
    socket.timeout(20_000).emit(event, payload, (_err: unknown, ack: Ack<unknown>) => resolve(ack)),
  );

const refusals = (editor: TestEditor) =>
  (editor.received.get("socketError") ?? []) as { event: string; code: string }[];

describe("the admission gate in front of every socket event", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const joinedPair = () => editors.hostAndGuest(server.api, "gate");

  it("refuses socket.io's reserved names and unknown events, and runs no listener for them", async () => {
    const { sessionId, host, guest } = await joinedPair();
    for (const name of RESERVED) sendRaw(guest.socket, [name, sessionId]);
    sendRaw(guest.socket, [42]);
    expect(await emitAck(guest.socket, "noSuchEvent", { sessionId })).toMatchObject({
      ok: false,
      error: { code: "unknown_event" },
    });
    await waitFor(() => refusals(guest).length === RESERVED.length + 1, 5000, "the refusals");
    expect(refusals(guest)).toEqual(
      [...RESERVED, "42"].map((event) => expect.objectContaining({ event, code: "unknown_event" })),
    );

    // The forged `disconnect` ran no leave handler: the guest is still in the room and the session.
    const onServer = server.app.io.sockets.sockets.get(guest.socket.id ?? "");
    expect(onServer?.rooms.has(sessionRoom(sessionId))).toBe(true);
    expect(onServer?.data.session?.id).toBe(sessionId);
    host.send("getParticipants", sessionId);
    await waitFor(() => host.received.has("participantsList"));
    expect(host.received.get("participantsList")?.[0]).toHaveLength(2);
    expect(host.received.has("participantLeft")).toBe(false);
    guest.file().insert(0, "still here\n");
    await waitFor(() => host.text().startsWith("still here\n"), 5000, "the guest's edit");
  });

  it("refuses a flood of terminal commands after a small burst, and the others are unaffected", async () => {
    const { sessionId, host, guest } = await joinedPair();
    const acks = await Promise.all(
      Array.from({ length: 150 }, () => guest.request("terminalCommand", { sessionId, command: "help" })),
    );
    const accepted = acks.filter((a) => a.ok).length;
    const limited = acks.filter((a) => !a.ok && a.error.code === "rate_limited").length;
    expect(accepted + limited).toBe(150);
    // 5 a second plus a burst of 15: one second's window may end during the flood.
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(30);
    const stored = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM terminal_entries WHERE session_id = $1 AND content = '$ help'",
      [sessionId],
    );
    expect(stored[0]?.n).toBe(accepted);
    expect(await host.request("terminalCommand", { sessionId, command: "help" })).toMatchObject({
      ok: true,
    });
  });

  it("refuses text holding NUL in any event, as PostgreSQL could not store it, and stores nothing", async () => {
    const { sessionId, guest } = await joinedPair();
    const pr = { sessionId, title: "a\u0000b", description: "fine" };
    expect(await guest.request("createPR", pr)).toMatchObject({
      ok: false,
      error: { code: "invalid_payload", message: expect.stringMatching(/^title may not contain the NUL/) },
    });
    const stored = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pull_requests WHERE session_id = $1",
      [sessionId],
    );
    expect(stored[0]?.n).toBe(0);
  });

  it("meters every other event per connection too, answering each refusal", async () => {
    const { sessionId, guest } = await joinedPair();
    for (let i = 0; i < 120; i++) guest.send("getParticipants", sessionId);
    const answered = () => (guest.received.get("participantsList") ?? []).length + refusals(guest).length;
    await waitFor(() => answered() === 120, 5000, "an answer to each");
    const lists = (guest.received.get("participantsList") ?? []).length;
    expect(lists).toBeGreaterThanOrEqual(55);
    expect(lists).toBeLessThanOrEqual(80);
    expect(refusals(guest).every((r) => r.code === "rate_limited" && r.event === "getParticipants")).toBe(
      true,
    );
    // Yjs is not metered per message: the guest still edits.
    guest.file().insert(0, "x");
    await waitFor(() => guest.client.synced);
  });

  it("cuts off a flood of Yjs messages from one connection, and lets it edit again a second later", async () => {
    const { host, guest } = await joinedPair();
    const relayed = () => (host.received.get("yjsAwareness") ?? []).length;
    const before = relayed();
    // Each change of the local state is one awareness message, as a browser's cursor moves.
    for (let i = 0; i < 2000; i++) guest.awareness.setLocalStateField("n", i);
    await waitFor(() => relayed() - before + refusals(guest).length === 2000, 5000, "every message handled");
    expect(refusals(guest).every((r) => r.code === "rate_limited" && r.event === "yjsAwareness")).toBe(true);
    // A bucket of 1000 that refills at 200 a second while the flood arrives.
    expect(relayed() - before).toBeGreaterThanOrEqual(1000);
    expect(relayed() - before).toBeLessThanOrEqual(1300);
    // The test waits for the bucket to refill, then the guest's edits flow again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    guest.file().insert(0, "calm again\n");
    await waitFor(() => host.text().startsWith("calm again\n"), 5000, "the guest's edit");
  });

  it("drops a flood of edits past the meter, then asks for them again: nothing typed is lost", async () => {
    const { host, guest } = await joinedPair();
    // Each insert is its own update message, as fast as a script can send them.
    for (let i = 0; i < 1500; i++) guest.file().insert(0, "k");
    await waitFor(() => refusals(guest).some((r) => r.event === "yjsSync" && r.code === "rate_limited"));
    await waitFor(() => host.text() === guest.text(), 10_000, "the dropped edits");
    expect(host.text().startsWith("k".repeat(1500))).toBe(true);
  });
});
