import { ROLE_MESSAGES } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, emitAck, waitFor } from "../../../test/collabClient";
import { buildSession, DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const hostOnly = { ok: false, error: { code: "forbidden", message: ROLE_MESSAGES.hostOnly } };

/** Interview mode (issue 30, item 6): the host switches completions off for the whole session. */
describe.each(DATABASES)("a session's settings on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const storedCompletions = async (sessionId: string) => {
    const [row] = await server.db.query<{ completions: boolean }>(
      "SELECT completions FROM sessions WHERE id = $1",
      [sessionId],
    );
    return row?.completions;
  };

  it("refuses both events before the socket joined the session", async () => {
    const { sessionId } = await buildSession(server.api, "settings not joined");
    const stranger = await editors.open();
    expect(await stranger.request("getSessionSettings", { sessionId })).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    expect(await stranger.request("setSessionSettings", { sessionId, completions: false })).toMatchObject({
      ok: false,
      error: { code: "not_joined" },
    });
    expect(await storedCompletions(sessionId)).toBe(true);
  });

  it("refuses a guest's forged switch with the host-only error, changing and telling nothing", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "settings forged");
    expect(await guest.request("setSessionSettings", { sessionId, completions: false })).toEqual(hostOnly);
    expect(await storedCompletions(sessionId)).toBe(true);
    expect(await guest.request("getSessionSettings", { sessionId })).toEqual({
      ok: true,
      data: { sessionId, completions: true },
    });
    expect(host.events("sessionSettings")).toEqual([]);
  });

  it("refuses a malformed switch", async () => {
    const { sessionId, host } = await editors.hostAndGuest(server.api, "settings malformed");
    const ack = await emitAck(host.socket, "setSessionSettings", { sessionId, completions: "off" });
    expect(ack).toMatchObject({ ok: false });
    expect(await storedCompletions(sessionId)).toBe(true);
  });

  it("stores the host's switch, tells everyone, and gives it to a late joiner and a reconnect", async () => {
    const { sessionId, host, guest } = await editors.hostAndGuest(server.api, "settings interview");
    const off = { sessionId, completions: false };
    expect(await host.request("setSessionSettings", off)).toEqual({ ok: true, data: off });
    expect(await storedCompletions(sessionId)).toBe(false);
    for (const editor of [host, guest]) await editor.waitFor("sessionSettings", (s) => !s.completions);

    const late = await editors.open();
    await late.join(sessionId);
    expect(await late.request("getSessionSettings", { sessionId })).toEqual({ ok: true, data: off });

    // The guest's connection drops and comes back: the same answer.
    guest.socket.disconnect();
    guest.socket.connect();
    await waitFor(() => guest.socket.connected, 5000, "the reconnect");
    await guest.join(sessionId);
    expect(await guest.request("getSessionSettings", { sessionId })).toEqual({ ok: true, data: off });

    const on = { sessionId, completions: true };
    expect(await host.request("setSessionSettings", on)).toEqual({ ok: true, data: on });
    await late.waitFor("sessionSettings", (s) => s.completions);
    expect(await storedCompletions(sessionId)).toBe(true);
  });
});
