import {
  ACCOUNT_MESSAGES,
  CONNECT_ERRORS,
  DELETED_USER_NAME,
  LANGUAGE_MAIN_FILES,
  PROTOCOL_VERSION,
} from "@ensemble/protocol";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../../test/collabClient";
import {
  type BuiltUser,
  buildSession,
  buildUser,
  DATABASES,
  socketClient,
  startTestServer,
  type TestServer,
} from "../../../test/harness";

describe.each(DATABASES)("account deletion and export on %s", (kind) => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  beforeAll(async () => {
    server = await startTestServer(kind, { LOGIN_MAX_PER_ADDRESS: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  const remove = (id: string, json: unknown, token?: string) =>
    server.api.call("DELETE", `/api/auth/user/${id}`, token ? { json, token } : { json });
  const login = (user: BuiltUser) =>
    server.api.post("/api/auth/login", { email: user.user.email, password: user.password });
  const userRow = async (id: string) =>
    (
      await server.db.query<{
        name: string | null;
        email: string | null;
        password_hash: string | null;
        deleted_at: Date | null;
      }>("SELECT name, email, password_hash, deleted_at FROM users WHERE id = $1", [id])
    )[0];
  const handshake = (token: string) =>
    new Promise<string>((resolve) => {
      const socket = socketClient(server.url, { token, protocolVersion: PROTOCOL_VERSION });
      socket.on("connect", () => {
        socket.close();
        resolve("connected");
      });
      socket.on("connect_error", (error) => {
        socket.close();
        resolve(error.message);
      });
    });

  it("deletes with the password: every token refused (HTTP, socket, API token), live sockets closed, names gone", async () => {
    // B hosts a session A takes part in; A writes in its chat and has a pull request there.
    const { host: b, sessionId: bSession } = await buildSession(server.api, "b's");
    const a = await buildUser(server.api);
    const elsewhere = String((await login(a)).body.token);
    const apiToken = String(
      (await server.api.post("/api/users/me/tokens", { name: "ci" }, a.token)).body.token,
    );
    // A hosts one session B joined (kept as B's archive) and one nobody else joined (deleted).
    const shared = String(
      (await server.api.post("/api/session/create", { title: "shared" }, a.token)).body.session_id,
    );
    const solo = String(
      (await server.api.post("/api/session/create", { title: "solo" }, a.token)).body.session_id,
    );
    expect((await server.api.post("/api/session/join", { session_id: shared }, b.token)).status).toBe(200);
    const aEditor = await editors.open(a.token);
    const bEditor = await editors.open(b.token);
    expect((await aEditor.join(bSession)).ok).toBe(true);
    expect((await bEditor.join(shared)).ok).toBe(true);
    const sent = await aEditor.request("sendChat", { sessionId: bSession, text: "hello from A" });
    expect(sent.ok && sent.data.authorName).toBe(a.user.name);
    await server.db.query(
      `INSERT INTO pull_requests (id, session_id, title, description, author, author_id, source_branch,
         target_branch, status, language, files, head_sha) VALUES ('pr-a', $1, 'A''s fix', '', $2, $3,
         'a-fix', 'main', 'pending', 'javascript', '[]', 'abc')`,
      [bSession, a.user.name, a.user.id],
    );

    const preview = await server.api.get(`/api/auth/user/${a.user.id}/deletion`, a.token);
    expect(preview.body).toEqual({ hasPassword: true, sessionsArchived: 1, sessionsDeleted: 1 });

    expect((await server.api.post("/api/v2/execute", {}, apiToken)).status).toBe(400);
    // A wrong password deletes nothing.
    const wrong = await remove(a.user.id, { password: "not-it" }, a.token);
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(ACCOUNT_MESSAGES.wrongPassword);
    expect((await server.api.get("/api/getuser", a.token)).status).toBe(200);
    expect(aEditor.socket.connected).toBe(true);

    const disconnected = new Promise<string>((resolve) => aEditor.socket.on("disconnect", resolve));
    const ended = bEditor.waitFor("sessionState", (s) => s.sessionId === shared && s.endedAt !== null);
    const renamed = bEditor.waitFor(
      "accountDeleted",
      (e) => e.sessionId === shared && e.userId === a.user.id,
    );
    const res = await remove(a.user.id, { password: a.password }, a.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ACCOUNT_MESSAGES.deleted, sessionsArchived: 1, sessionsDeleted: 1 });
    expect(await disconnected).toBe("io server disconnect");
    await ended;
    await renamed;

    // Every token is refused at once, on every edge.
    for (const token of [a.token, elsewhere]) {
      expect((await server.api.get("/api/getuser", token)).status).toBe(401);
      expect((await server.api.get(`/api/auth/user/${a.user.id}/export`, token)).status).toBe(401);
      expect((await remove(a.user.id, { password: a.password }, token)).status).toBe(401);
      expect(await handshake(token)).toBe(CONNECT_ERRORS.invalidToken);
    }
    // Its API token too (an empty body: the token is checked first, nothing runs).
    expect((await server.api.post("/api/v2/execute", {}, apiToken)).status).toBe(401);
    expect((await login(a)).status).toBe(401);

    // The row keeps its id and nothing else.
    const row = await userRow(a.user.id);
    expect(row).toMatchObject({ name: null, email: null, password_hash: null });
    expect(row?.deleted_at).toBeInstanceOf(Date);

    // B sees A as "Deleted user": chat, participants, pull requests.
    expect((await bEditor.join(bSession)).ok).toBe(true);
    const bHistory = await bEditor.request("getChatHistory", { sessionId: bSession });
    if (!bHistory.ok) throw new Error(bHistory.error.message);
    expect(bHistory.data.messages.map((m) => [m.authorId, m.authorName, m.text])).toEqual([
      [a.user.id, DELETED_USER_NAME, "hello from A"],
    ]);
    const session = await server.api.get(`/api/session/${bSession}`, b.token);
    expect(session.body.participants).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: a.user.id, name: DELETED_USER_NAME })]),
    );
    expect(JSON.stringify(session.body)).not.toContain(a.user.name);
    const prs = await server.db.query<{ author: string }>(
      "SELECT author FROM pull_requests WHERE id = 'pr-a'",
    );
    expect(prs[0]?.author).toBe(DELETED_USER_NAME);

    // The shared session is B's archive; the solo one is gone.
    const sessions = await server.db.query<{ id: string; ended_at: Date | null }>(
      "SELECT id, ended_at FROM sessions WHERE id = ANY($1::text[])",
      [[shared, solo]],
    );
    expect(sessions).toEqual([{ id: shared, ended_at: expect.any(Date) }]);
    expect((await server.api.get(`/api/session/${shared}`, b.token)).body.ended_at).toEqual(
      expect.any(String),
    );

    // The email and the username are free again.
    const again = await server.api.post("/api/auth/register", {
      name: a.user.name,
      email: a.user.email,
      password: "another-one",
    });
    expect(again.status).toBe(201);
    expect((again.body.user as { id: string }).id).not.toBe(a.user.id);
    // B is untouched.
    expect((await server.api.get("/api/getuser", b.token)).status).toBe(200);
  });

  it("a forged request changes nothing: another user's id, no token, a bad body", async () => {
    const a = await buildUser(server.api);
    const b = await buildUser(server.api);
    for (const json of [{ password: b.password }, { password: a.password }]) {
      const forged = await remove(a.user.id, json, b.token);
      expect(forged.status).toBe(403);
      expect(forged.body.message).toBe(ACCOUNT_MESSAGES.ownOnly);
    }
    expect((await server.api.get(`/api/auth/user/${a.user.id}/export`, b.token)).status).toBe(403);
    expect((await server.api.get(`/api/auth/user/${a.user.id}/deletion`, b.token)).status).toBe(403);
    expect((await remove(a.user.id, { password: a.password })).status).toBe(401);
    for (const json of [{}, { password: "" }, { password: 7 }, { githubCode: "" }]) {
      const bad = await remove(a.user.id, json, a.token);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "invalid_body" });
    }
    // A GitHub code that was never issued (and no state cookie) is refused.
    const code = await remove(a.user.id, { githubCode: "made-up" }, a.token);
    expect(code.status).toBe(401);
    expect(code.body.message).toBe(ACCOUNT_MESSAGES.githubExpired);
    for (const user of [a, b]) {
      expect((await server.api.get("/api/getuser", user.token)).status).toBe(200);
      expect((await userRow(user.user.id))?.deleted_at).toBeNull();
    }
  });

  it("a second deletion with the deleted account's token finds nobody", async () => {
    const a = await buildUser(server.api);
    const [first, second] = await Promise.all([
      remove(a.user.id, { password: a.password }, a.token),
      remove(a.user.id, { password: a.password }, a.token),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 404]).toContain(statuses[1]);
  });

  it("exports the account, the hosted sessions' files at their paths, PRs and chat as a zip", async () => {
    const { host: a, sessionId } = await buildSession(server.api, "exported");
    const editor = await editors.open(a.token);
    expect((await editor.join(sessionId)).ok).toBe(true);
    await waitFor(() => editor.client.synced);
    editor.file().insert(0, "// exported text\n");
    expect((await editor.request("sendChat", { sessionId, text: "note to self" })).ok).toBe(true);
    // Closed first: the export reads the stored document, not a live one.
    await editor.close();
    await waitFor(() => !server.app.collab.rooms.isLoaded(sessionId));

    const res = await fetch(`${server.url}/api/auth/user/${a.user.id}/export`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="ensemble-export-/);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const json = (name: string): unknown => JSON.parse(strFromU8(zip[name] ?? new Uint8Array()));
    const account = json("account.json");
    expect(account).toMatchObject({
      id: a.user.id,
      name: a.user.name,
      email: a.user.email,
      hasPassword: true,
    });
    expect(strFromU8(zip["account.json"] ?? new Uint8Array())).not.toMatch(/argon2|password_hash|pa55word/);
    expect(json("sessions.json")).toEqual([expect.objectContaining({ id: sessionId, title: "exported" })]);
    expect(
      strFromU8(zip[`sessions/${sessionId}/${LANGUAGE_MAIN_FILES.javascript}`] ?? new Uint8Array()),
    ).toContain("// exported text");
    expect(json("chat-messages.json")).toEqual([
      expect.objectContaining({ sessionId, text: "note to self", authorId: a.user.id }),
    ]);
    expect(json("pull-requests.json")).toEqual([]);
    expect((await server.api.get(`/api/auth/user/${a.user.id}/export`)).status).toBe(401);
  });
});
