import { randomBytes } from "node:crypto";
import { type Ack, type Joined, PROTOCOL_VERSION } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, waitFor } from "../../test/collabClient";
import { buildSession, socketClient, startTestServer, type TestServer } from "../../test/harness";

/** Every string inside a value (what a participant could copy from what it was sent). */
function stringsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === "object")
    for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

describe("a guest's identity", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer("postgres");
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  /** Connects with this handshake and joins; answers the id it joined as, or null when refused. */
  async function joinAs(auth: Record<string, unknown>, sessionId: string): Promise<string | null> {
    const socket = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION, ...auth });
    try {
      const connected = await new Promise<boolean>((resolve) => {
        socket.once("connect", () => resolve(true));
        socket.once("connect_error", () => resolve(false));
      });
      if (!connected) return null;
      const joined = await new Promise<Ack<Joined>>((resolve) =>
        socket.emit("joinSession", sessionId, resolve),
      );
      return joined.ok ? joined.data.self.id : null;
    } finally {
      socket.disconnect();
    }
  }

  it("stays the same participant with its browser's secret, which nothing sent to others reveals", async () => {
    const { host: hostUser, sessionId } = await buildSession(server.api, "guests");
    const host = await editors.open(hostUser.token);
    await host.join(sessionId);
    const secret = randomBytes(32).toString("hex");
    const guest: TestEditor = await editors.open(undefined, { guestSecret: secret });
    const joined = await guest.join(sessionId);
    const victim = joined.ok ? joined.data.self.id : "";
    expect(victim).toMatch(/^guest-/);
    // What the guest shows the others: its presence, its cursor, a terminal line.
    guest.awareness.setLocalStateField("cursor", { anchor: 1 });
    await new Promise((resolve) =>
      guest.socket.emit("terminalCommand", { sessionId, command: "help" }, resolve),
    );
    await waitFor(() => host.awareness.getStates().size === 2 && host.received.has("terminalUpdate"));
    host.send("getParticipants", sessionId);
    await waitFor(() => host.received.has("participantsList"));
    const seen = stringsIn([[...host.received.entries()], [...host.awareness.getStates().values()]]);
    expect(seen.has(victim)).toBe(true);
    expect([...seen].some((s) => s.includes(secret))).toBe(false);

    // Whoever copies any of it, as a secret or as the old guest id, is someone else (or refused).
    const attempts = [...seen].flatMap((s) => [s, s.replace(/^guest-/, "")]);
    for (const copied of new Set(attempts)) {
      for (const auth of [{ guestSecret: copied }, { guestId: copied }]) {
        expect(await joinAs(auth, sessionId)).not.toBe(victim);
      }
    }
    // The browser that holds the secret is the same participant again.
    expect(await joinAs({ guestSecret: secret }, sessionId)).toBe(victim);
    // A guest without a secret (or with only the old id) gets a new identity each time.
    const strangers = [
      await joinAs({}, sessionId),
      await joinAs({ guestId: "guest0123456789abcdef" }, sessionId),
    ];
    expect(new Set([...strangers, victim]).size).toBe(3);
  });

  it("refuses a malformed secret at the handshake", async () => {
    const socket = socketClient(server.url, { protocolVersion: PROTOCOL_VERSION, guestSecret: "../x" });
    expect(await new Promise((resolve) => socket.on("connect_error", (e) => resolve(e.message)))).toBe(
      "bad_handshake",
    );
  });
});
