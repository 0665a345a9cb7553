import fs from "node:fs/promises";
import path from "node:path";
import { MY_SESSIONS_MESSAGES, MY_SESSIONS_PAGE_SIZE, MySessionsPageSchema } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import {
  type BuiltUser,
  buildSession,
  buildUser,
  DATABASES,
  startTestServer,
  type TestServer,
} from "../../../test/harness";

/** Issue 31, "My sessions": the list of my sessions, paged, and the host's end and delete. */
describe.each(DATABASES)("my sessions on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  async function mine(user: BuiltUser, page?: number) {
    const res = await server.api.get(
      `/api/users/me/sessions${page === undefined ? "" : `?page=${page}`}`,
      user.token,
    );
    expect(res.status).toBe(200);
    return MySessionsPageSchema.parse(res.body);
  }
  const join = (user: BuiltUser, sessionId: string) =>
    server.api.post("/api/session/join", { session_id: sessionId }, user.token);
  const end = (sessionId: string, token?: string) =>
    server.api.call("POST", `/api/session/${sessionId}/end`, token ? { token } : {});
  const remove = (sessionId: string, token?: string) =>
    server.api.call("DELETE", `/api/session/${sessionId}`, token ? { token } : {});
  const stored = async (sessionId: string) => ({
    sessions: (await server.db.query("SELECT 1 FROM sessions WHERE id = $1", [sessionId])).length,
    participants: (
      await server.db.query("SELECT 1 FROM session_participants WHERE session_id = $1", [sessionId])
    ).length,
    history: (await server.db.query("SELECT 1 FROM doc_history WHERE session_id = $1", [sessionId])).length,
    log: (await server.db.query("SELECT 1 FROM doc_updates WHERE session_id = $1", [sessionId])).length,
  });

  it("needs a token and a valid page", async () => {
    expect((await server.api.get("/api/users/me/sessions")).status).toBe(401);
    expect((await server.api.get("/api/users/me/sessions", "forged.token.value")).status).toBe(401);
    const user = await buildUser(server.api);
    for (const page of ["0", "-1", "1.5", "x", "100001"]) {
      const res = await server.api.get(`/api/users/me/sessions?page=${page}`, user.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "bad_request", message: "page must be a whole number from 1" });
    }
  });

  it("lists the sessions I host and joined, with my role, the people and the state, and no one else's", async () => {
    const me = await buildUser(server.api);
    const other = await buildUser(server.api);
    const hosted = String(
      (await server.api.post("/api/session/create", { title: "Mine" }, me.token)).body.session_id,
    );
    const { host: theirHost, sessionId: joined } = await buildSession(server.api, "Theirs");
    expect((await join(me, joined)).status).toBe(200);
    await join(other, joined);
    const { sessionId: notMine } = await buildSession(server.api, "Not mine");
    const { sessionId: removedFrom, host: remover } = await buildSession(server.api, "Removed");
    await join(me, removedFrom);
    await server.db.query(
      "UPDATE session_participants SET removed_at = now() WHERE session_id = $1 AND user_id = $2",
      [removedFrom, me.user.id],
    );
    expect((await end(joined, theirHost.token)).status).toBe(200);

    const page = await mine(me);
    expect(page).toMatchObject({ page: 1, page_size: MY_SESSIONS_PAGE_SIZE, has_more: false });
    const byId = new Map(page.sessions.map((s) => [s.session_id, s]));
    expect([...byId.keys()].sort()).toEqual([hosted, joined].sort());
    expect(byId.get(hosted)).toMatchObject({
      title: "Mine",
      role: "host",
      participant_count: 1,
      ended_at: null,
    });
    expect(byId.get(joined)).toMatchObject({ title: "Theirs", role: "editor", participant_count: 3 });
    expect(byId.get(joined)?.ended_at).not.toBeNull();
    // The most recently active first: the joined session was ended after mine was made.
    expect(page.sessions.map((s) => s.session_id)).toEqual([joined, hosted]);
    for (const s of page.sessions)
      expect(Date.parse(s.last_activity_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(page)).not.toContain(notMine);
    expect(JSON.stringify(page)).not.toContain(remover.user.id);
  });

  it("pages by the page parameter, every session once", async () => {
    const me = await buildUser(server.api);
    const total = MY_SESSIONS_PAGE_SIZE + 3;
    for (let i = 0; i < total; i++)
      await server.api.post("/api/session/create", { title: `s${i}` }, me.token);
    const first = await mine(me, 1);
    const second = await mine(me, 2);
    const third = await mine(me, 3);
    expect([first.sessions.length, first.has_more]).toEqual([MY_SESSIONS_PAGE_SIZE, true]);
    expect([second.sessions.length, second.has_more]).toEqual([3, false]);
    expect([third.sessions.length, third.has_more]).toEqual([0, false]);
    const ids = new Set([...first.sessions, ...second.sessions].map((s) => s.session_id));
    expect(ids.size).toBe(total);
    // The newest first: the last one made leads the first page.
    expect(first.sessions[0]?.title).toBe(`s${total - 1}`);
    expect((await mine(me)).sessions).toEqual(first.sessions);
  });

  it("lets only the host end a session; a forged end changes nothing", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "to end");
    const editor = await buildUser(server.api);
    await join(editor, sessionId);
    const outsider = await buildUser(server.api);

    expect((await end(sessionId)).status).toBe(401);
    const forged = await end(sessionId, editor.token);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ code: "forbidden", message: MY_SESSIONS_MESSAGES.hostOnlyEnd });
    expect((await end(sessionId, outsider.token)).status).toBe(404);
    expect((await end("no-such-session", hostUser.token)).status).toBe(404);
    expect((await end("../etc", hostUser.token)).status).toBe(404);
    expect((await server.api.get(`/api/session/${sessionId}`, hostUser.token)).body.ended_at).toBeNull();
    expect(guest.received.get("sessionEnding")).toBeUndefined();

    const ended = await end(sessionId, hostUser.token);
    expect(ended.status).toBe(200);
    expect(ended.body.session_id).toBe(sessionId);
    // Everyone in the session is offered the end dialog, then told it is read-only, as from the editor.
    expect(await guest.waitFor("sessionEnding")).toEqual({ sessionId });
    const state = await guest.waitFor("sessionState");
    expect(state).toEqual({ sessionId, endedAt: ended.body.ended_at });
    await host.waitFor("sessionState");
    const listed = (await mine(editor)).sessions.find((s) => s.session_id === sessionId);
    expect(listed?.ended_at).toBe(ended.body.ended_at);
    expect(await guest.request("createFile", { sessionId, path: "src/late.js", kind: "file" })).toMatchObject(
      {
        ok: false,
        error: { code: "session_ended" },
      },
    );
  });

  it("lets only the host delete a session; a forged delete changes nothing", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "to keep");
    const editor = await buildUser(server.api);
    await join(editor, sessionId);
    const outsider = await buildUser(server.api);
    const before = await stored(sessionId);
    expect(before.sessions).toBe(1);

    expect((await remove(sessionId)).status).toBe(401);
    const forged = await remove(sessionId, editor.token);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ code: "forbidden", message: MY_SESSIONS_MESSAGES.hostOnlyDelete });
    expect((await remove(sessionId, outsider.token)).status).toBe(404);
    expect((await remove("demo-session", editor.token)).status).toBe(404);
    expect(await stored(sessionId)).toEqual(before);
    expect(guest.received.get("sessionDeleted")).toBeUndefined();
    expect(server.app.collab.workspace.isLoaded(sessionId)).toBe(true);
    // Nobody hosts the public demo: nobody deletes it.
    await join(editor, "demo-session");
    expect((await remove("demo-session", editor.token)).status).toBe(403);
    expect((await server.db.query("SELECT 1 FROM sessions WHERE id = 'demo-session'")).length).toBe(1);
    expect(host.socket.connected).toBe(true);
    const kept = await server.api.get(`/api/session/${sessionId}`, hostUser.token);
    expect((kept.body.participants as unknown[]).length).toBe(2);
  });

  it("deletes a live session for everyone: sent home, its files, history and repository gone", async () => {
    const { sessionId, host, guest, hostUser } = await editors.hostAndGuest(server.api, "to delete");
    const editor = await buildUser(server.api);
    await join(editor, sessionId);
    guest.file().insert(0, "// history\n");
    await waitFor(async () => (await stored(sessionId)).history > 1, 5000, "the edit stored");
    // A git operation makes the session's repository on disk.
    const git = await server.api.post(`/api/session/${sessionId}/git`, { op: "status" }, hostUser.token);
    expect(git.status).toBe(200);
    const repo = path.join(server.dataDir, "repos", sessionId);
    await fs.access(repo);

    // A program runs for everyone, forever unless stopped.
    const main = guest.file();
    main.delete(0, main.length);
    main.insert(0, "setInterval(() => {}, 1000);\n");
    await waitFor(
      () =>
        server.app.collab.workspace.files(sessionId)?.some((f) => f.content.startsWith("setInterval")) ??
        false,
      5000,
      "the program stored",
    );
    const terminal = server.app.terminal.service;
    void host.request("runCode", { sessionId }, 60_000);
    await waitFor(() => terminal.runState(sessionId).isRunning, 20_000, "the run");

    // Someone waits at the door of the now locked session.
    expect(await host.request("setLock", { sessionId, isLocked: true })).toMatchObject({ ok: true });
    const waiting = await editors.open();
    expect(await waiting.join(sessionId)).toMatchObject({ ok: false, error: { code: "session_locked" } });

    const res = await remove(sessionId, hostUser.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_id: sessionId, message: MY_SESSIONS_MESSAGES.deleted });
    expect(await guest.waitFor("sessionDeleted")).toEqual({ sessionId });
    expect(await host.waitFor("sessionDeleted")).toEqual({ sessionId });
    expect(await waiting.waitFor("sessionDeleted")).toEqual({ sessionId });
    expect(await stored(sessionId)).toEqual({ sessions: 0, participants: 0, history: 0, log: 0 });
    await expect(fs.access(repo)).rejects.toThrow();
    // The run was stopped, not left to its time limit.
    await waitFor(() => !terminal.runState(sessionId).isRunning, 15_000, "the run stopped");
    expect(server.app.collab.workspace.isLoaded(sessionId)).toBe(false);
    // Out of the session: its events are refused, and it cannot be joined again.
    expect(await guest.request("getSessionSettings", { sessionId })).toMatchObject({ ok: false });
    expect(await guest.join(sessionId)).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect((await mine(editor)).sessions.map((s) => s.session_id)).not.toContain(sessionId);
    expect((await server.api.get(`/api/session/${sessionId}`, hostUser.token)).status).toBe(404);
    expect((await remove(sessionId, hostUser.token)).status).toBe(404);
  });
});
