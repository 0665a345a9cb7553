import { DEMO_SESSION_ID } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSession, buildUser, DATABASES, startTestServer, type TestServer } from "../../../test/harness";

describe.each(DATABASES)("sessions API on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { PUBLIC_URL: "https://ensemble.example" });
  });
  afterAll(() => server.close());

  describe("POST /api/session/create", () => {
    it("needs a token", async () => {
      const res = await server.api.post("/api/session/create", { title: "t" });
      expect(res.status).toBe(401);
    });

    it("refuses a missing or too long title and creates nothing", async () => {
      const user = await buildUser(server.api);
      for (const body of [{}, { title: "   " }, { title: "x".repeat(101) }, { title: 42 }]) {
        const res = await server.api.post("/api/session/create", body, user.token);
        expect(res.status).toBe(400);
      }
      const rows = await server.db.query("SELECT 1 FROM sessions WHERE host_id = $1", [user.user.id]);
      expect(rows).toHaveLength(0);
    });

    it("generates an unguessable id, makes the caller host and ignores a client-sent id", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.post(
        "/api/session/create",
        { title: " Pairing ", session_id: "chosen-by-client" },
        user.token,
      );
      expect(res.status).toBe(201);
      const id = String(res.body.session_id);
      expect(id).not.toBe("chosen-by-client");
      // 24 base64url characters carry 144 bits.
      expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(res.body).toMatchObject({
        title: "Pairing",
        session_link: `https://ensemble.example/code-editor-dashboard/${id}`,
      });
      const session = await server.api.get(`/api/session/${id}`, user.token);
      expect(session.body.participants).toEqual([
        expect.objectContaining({ user_id: user.user.id, role: "host", name: user.user.name }),
      ]);
    });

    it("never hands out the same id twice", async () => {
      const user = await buildUser(server.api);
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) {
        ids.add(
          String(
            (await server.api.post("/api/session/create", { title: `s${i}` }, user.token)).body.session_id,
          ),
        );
      }
      expect(ids.size).toBe(20);
    });
  });

  describe("POST /api/session/join", () => {
    it("needs a token", async () => {
      expect((await server.api.post("/api/session/join", { session_id: DEMO_SESSION_ID })).status).toBe(401);
    });

    it("refuses an empty or malformed id with the spec's message", async () => {
      const user = await buildUser(server.api);
      const empty = await server.api.post("/api/session/join", { session_id: "  " }, user.token);
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe("Please enter a valid session ID!");
      const odd = await server.api.post("/api/session/join", { session_id: "../etc/passwd" }, user.token);
      expect(odd.status).toBe(400);
    });

    it("answers 404 for an unknown session", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.post("/api/session/join", { session_id: "does-not-exist" }, user.token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Session not found");
    });

    it("adds the caller as a participant once, keeping the host's role", async () => {
      const host = await buildUser(server.api);
      const guest = await buildUser(server.api);
      const id = String(
        (await server.api.post("/api/session/create", { title: "t" }, host.token)).body.session_id,
      );
      const joined = await server.api.post("/api/session/join", { session_id: ` ${id} ` }, guest.token);
      expect(joined.status).toBe(200);
      expect(joined.body).toMatchObject({
        session_id: id,
        role: "editor",
        message: "Joined session successfully",
      });
      const again = await server.api.post("/api/session/join", { session_id: id }, guest.token);
      expect(again.body.message).toBe("You are already in this session");
      const hostJoins = await server.api.post("/api/session/join", { session_id: id }, host.token);
      expect(hostJoins.body.role).toBe("host");
      const session = await server.api.get(`/api/session/${id}`, guest.token);
      const participants = session.body.participants as { user_id: string; role: string }[];
      expect(participants.map((p) => [p.user_id, p.role])).toEqual([
        [host.user.id, "host"],
        [guest.user.id, "editor"],
      ]);
    });

    it("lets anyone signed in join the public demo session", async () => {
      const user = await buildUser(server.api);
      const res = await server.api.post("/api/session/join", { session_id: DEMO_SESSION_ID }, user.token);
      expect(res.status).toBe(200);
      expect(res.body.role).toBe("editor");
    });
  });

  describe("GET /api/session/{id}", () => {
    it("answers 404 for an unknown or malformed id", async () => {
      expect((await server.api.get("/api/session/nope")).status).toBe(404);
      expect((await server.api.get(`/api/session/${"x".repeat(200)}`)).status).toBe(404);
    });

    it("shows the whole record, without emails, to a participant only", async () => {
      const user = await buildUser(server.api);
      await server.api.post("/api/session/join", { session_id: DEMO_SESSION_ID }, user.token);
      const res = await server.api.get(`/api/session/${DEMO_SESSION_ID}`, user.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ session_id: DEMO_SESSION_ID, is_public: true });
      expect(res.body.participants).toContainEqual(expect.objectContaining({ user_id: user.user.id }));
      expect(JSON.stringify(res.body)).not.toContain(user.user.email);
    });

    it("tells anyone else, signed in or not, only that it exists and its title", async () => {
      const { host, sessionId } = await buildSession(server.api, "Secret pairing");
      const outsider = await buildUser(server.api);
      const summary = { session_id: sessionId, title: "Secret pairing" };
      for (const token of [undefined, outsider.token]) {
        const res = await server.api.get(`/api/session/${sessionId}`, token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(summary);
        expect(JSON.stringify(res.body)).not.toContain(host.user.id);
        expect(JSON.stringify(res.body)).not.toContain(host.user.name);
      }
      // Joining is what makes one a participant; reading did not.
      expect(
        await server.db.query("SELECT 1 FROM session_participants WHERE user_id = $1", [outsider.user.id]),
      ).toEqual([]);
    });

    it("refuses a forged or expired token rather than reading it as no token", async () => {
      const { sessionId } = await buildSession(server.api);
      const res = await server.api.get(`/api/session/${sessionId}`, "forged.token.value");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "invalid_token", message: "Invalid token" });
    });
  });
});
