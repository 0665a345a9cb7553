import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CONNECT_ERRORS, PROTOCOL_VERSION } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, socketClient, startTestServer, type TestServer } from "../test/harness";

/** Resolves with "connected" or the connect_error message. */
function tryConnect(url: string, auth: Record<string, unknown>) {
  const socket = socketClient(url, auth);
  return new Promise<string>((resolve) => {
    socket.on("connect", () => {
      socket.disconnect();
      resolve("connected");
    });
    socket.on("connect_error", (error) => resolve(error.message));
  });
}

describe("one process, one port", () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-web-"));
    await fs.mkdir(path.join(webDist, "assets"));
    await fs.writeFile(path.join(webDist, "index.html"), "<!doctype html><title>Ensemble</title>");
    await fs.writeFile(path.join(webDist, "assets", "app-abc123.js"), "console.log(1)");
    server = await startTestServer("embedded", { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(webDist, { recursive: true, force: true });
  });

  it("serves the web build, with client routes falling back to index.html", async () => {
    for (const route of ["/", "/signin", "/code-editor-dashboard/abc", "/About"]) {
      const res = await fetch(`${server.url}${route}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("<title>Ensemble</title>");
    }
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.headers.get("cache-control")).toContain("immutable");
  });

  it("handles every event of the client catalogue, each through the one table", () => {
    expect(server.app.events.unhandled()).toEqual([]);
  });

  it("answers unknown API routes with JSON 404, not the web page", async () => {
    const res = await server.api.get("/api/no/such/route");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "not_found", message: "No API route for GET /no/such/route" });
  });

  it("refuses sockets with a bad handshake, another protocol version or a bad token", async () => {
    expect(await tryConnect(server.url, {})).toBe(CONNECT_ERRORS.badHandshake);
    expect(await tryConnect(server.url, { protocolVersion: PROTOCOL_VERSION + 1 })).toBe(
      CONNECT_ERRORS.protocolMismatch,
    );
    expect(await tryConnect(server.url, { protocolVersion: PROTOCOL_VERSION, token: "forged" })).toBe(
      CONNECT_ERRORS.invalidToken,
    );
  });

  it("accepts a signed-in socket and an anonymous guest on the same port", async () => {
    const user = await buildUser(server.api);
    expect(await tryConnect(server.url, { protocolVersion: PROTOCOL_VERSION, token: user.token })).toBe(
      "connected",
    );
    expect(await tryConnect(server.url, { protocolVersion: PROTOCOL_VERSION })).toBe("connected");
  });
});
