import { type Ack, SESSION_ENDED_MESSAGE, type SessionState, STARTER_CODE } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, type TestEditor, typeLine, waitFor } from "../../../test/collabClient";
import { DATABASES, startTestServer, type TestServer } from "../../../test/harness";

const refusals = (editor: TestEditor) =>
  (editor.received.get("socketError") ?? []) as { event: string; code: string; message: string }[];
const states = (editor: TestEditor) => (editor.received.get("sessionState") ?? []) as SessionState[];

/** DESIGN decision 15: the host's End Session makes the session a read-only archive until reopened. */
describe.each(DATABASES)("an ended session on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  async function newSession() {
    const { hostUser, ...joined } = await editors.hostAndGuest(server.api, "ending");
    return { ...joined, hostToken: hostUser.token };
  }

  const serverText = (sessionId: string) =>
    server.app.collab.workspace.files(sessionId)?.find((f) => f.path === "src/main.js")?.content;

  it("can be ended and reopened by the host only, whatever a guest sends", async () => {
    const { sessionId, host, guest, hostToken } = await newSession();
    for (const [event, verb] of [
      ["sessionEnding", "end"],
      ["reopenSession", "reopen"],
    ] as const) {
      const forged = await guest.request(event, { sessionId });
      const message = `Only the session host can ${verb} the session`;
      expect(forged).toEqual({ ok: false, error: { code: "forbidden", message } });
    }
    expect(host.received.get("sessionEnding")).toBeUndefined();
    expect((await server.api.get(`/api/session/${sessionId}`, hostToken)).body.ended_at).toBeNull();
    guest.file().insert(0, "still open\n");
    await waitFor(() => serverText(sessionId)?.startsWith("still open\n") ?? false, 5000, "the guest's edit");
  });

  it("refuses every change once ended, and shows the code, the PRs and the state", async () => {
    const { sessionId, host, guest, hostToken } = await newSession();
    const ended = await host.request("sessionEnding", { sessionId });
    if (!ended.ok) throw new Error(ended.error.message);
    expect(Date.parse(ended.data.endedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
    // The guest is offered the end dialog and told the session is now read-only.
    await waitFor(() => states(guest).length > 0, 5000, "sessionState");
    expect(guest.received.get("sessionEnding")).toEqual([{ sessionId }]);
    expect(states(guest)[0]).toEqual(ended.data);
    expect((await server.api.get(`/api/session/${sessionId}`, hostToken)).body.ended_at).toBe(
      ended.data.endedAt,
    );

    // Typing: refused, the server's text unchanged.
    guest.file().insert(0, "after the end\n");
    await waitFor(() => refusals(guest).length > 0, 5000, "the refusal");
    expect(refusals(guest)[0]).toEqual({
      event: "yjsSync",
      code: "session_ended",
      message: SESSION_ENDED_MESSAGE,
    });
    expect(serverText(sessionId)).toBe(STARTER_CODE.javascript);

    // Files, language, runs, the terminal's clear, and git changes: each refused with the same message.
    const refused = { ok: false, error: { code: "session_ended", message: SESSION_ENDED_MESSAGE } };
    expect(await guest.request("createFile", { sessionId, path: "src/new.js", kind: "file" })).toEqual(
      refused,
    );
    expect(await host.request("deletePath", { sessionId, path: "src/main.js" })).toEqual(refused);
    expect(await host.request("languageUpdate", { sessionId, language: "python" })).toEqual(refused);
    expect(await guest.request("runCode", { sessionId })).toEqual(refused);
    const clear = await new Promise<Ack<null>>((resolve) =>
      host.socket.emit("terminalCommand", { sessionId, command: "clear" }, resolve),
    );
    expect(clear).toEqual(refused);
    const commit = await host.request("gitOperation", {
      sessionId,
      operation: { op: "commit", message: "x" },
    });
    expect(commit).toEqual(refused);
    const http = await server.api.post(`/api/session/${sessionId}/git`, { op: "add", paths: [] }, hostToken);
    expect(http).toMatchObject({
      status: 409,
      body: { code: "session_ended", message: SESSION_ENDED_MESSAGE },
    });
    expect(await server.api.get(`/api/session/${sessionId}`, hostToken)).toMatchObject({
      body: { ended_at: ended.data.endedAt },
    });
    // Reading the repository still works.
    expect(await host.request("gitOperation", { sessionId, operation: { op: "status" } })).toMatchObject({
      ok: true,
    });
    expect(await typeLine(host, sessionId, "pr list")).toBeDefined();

    // A pull request can still be made: it is how the end dialog keeps a guest's work.
    const pr = await guest.request("createPR", { sessionId, title: "kept at the end" });
    expect(pr).toMatchObject({ ok: true });
  });

  it("opens read-only for a late visitor, with no refusal unless they type", async () => {
    const { sessionId, host, guest } = await newSession();
    host.file().insert(0, "final\n");
    await waitFor(() => serverText(sessionId)?.startsWith("final\n") ?? false);
    await host.request("sessionEnding", { sessionId });
    await host.close();
    await guest.close();
    const visitor = await editors.open();
    const joined = await visitor.join(sessionId);
    expect(joined).toMatchObject({ ok: true, data: { endedAt: expect.any(String) } });
    await waitFor(() => visitor.client.synced, 5000, "sync");
    expect(visitor.text()).toBe(`final\n${STARTER_CODE.javascript}`);
    // The sync's own answers carry nothing new: they are not edits and are not refused. Once
    // the server's step 1 arrived, our answer to it is sent; an acknowledged event sent after
    // it is handled after it, so its ack comes after any refusal of that answer.
    await waitFor(() => (visitor.received.get("yjsSync") ?? []).length >= 2, 5000, "the server's step 1");
    const after = await visitor.request("createFile", { sessionId, path: "src/x.js", kind: "file" });
    expect(after).toMatchObject({ ok: false, error: { code: "session_ended" } });
    expect(refusals(visitor)).toEqual([]);
    visitor.file().insert(0, "vandal\n");
    await waitFor(() => refusals(visitor).length > 0, 5000, "the refusal");
    expect(refusals(visitor)[0]?.code).toBe("session_ended");
    expect(serverText(sessionId)).toBe(`final\n${STARTER_CODE.javascript}`);
  });

  it("takes edits again once the host reopens it", async () => {
    const { sessionId, host, guest, hostToken } = await newSession();
    await host.request("sessionEnding", { sessionId });
    const reopened = await host.request("reopenSession", { sessionId });
    expect(reopened).toEqual({ ok: true, data: { sessionId, endedAt: null } });
    await waitFor(() => states(guest).length === 2, 5000, "both states");
    expect(states(guest)[1]).toEqual({ sessionId, endedAt: null });
    guest.file().insert(0, "reopened\n");
    await waitFor(() => serverText(sessionId)?.startsWith("reopened\n") ?? false, 5000, "the edit");
    expect(await host.request("createFile", { sessionId, path: "src/more.js", kind: "file" })).toMatchObject({
      ok: true,
    });
    expect((await server.api.get(`/api/session/${sessionId}`, hostToken)).body.ended_at).toBeNull();
  });
});
