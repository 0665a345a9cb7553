import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
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
    const page = `<!doctype html><title>Ensemble</title>${"<p>landing</p>".repeat(100)}`;
    await fs.writeFile(path.join(webDist, "index.html"), page);
    await fs.writeFile(path.join(webDist, "index.html.br"), zlib.brotliCompressSync(page));
    // As the build prerenders them: sign-in and documentation in pages of their own.
    for (const name of ["signin", "documentation"]) {
      const prerendered = `<!doctype html><title>Ensemble</title>${`<p>${name} page</p>`.repeat(100)}`;
      await fs.writeFile(path.join(webDist, `${name}.html`), prerendered);
      await fs.writeFile(path.join(webDist, `${name}.html.br`), zlib.brotliCompressSync(prerendered));
    }
    // And the bare page for every other path.
    const shell = `<!doctype html><title>Ensemble</title>${"<p>shell</p>".repeat(100)}`;
    await fs.writeFile(path.join(webDist, "app.html"), shell);
    await fs.writeFile(path.join(webDist, "app.html.br"), zlib.brotliCompressSync(shell));
    await fs.mkdir(path.join(webDist, "images"));
    const logo = `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(400)}</svg>`;
    await fs.writeFile(path.join(webDist, "images", "logo.svg"), logo);
    await fs.writeFile(path.join(webDist, "images", "logo.svg.br"), zlib.brotliCompressSync(logo));
    await fs.writeFile(path.join(webDist, "assets", "app-abc123.js"), "console.log(1)");
    // As the build writes them: a brotli and a gzip copy beside an asset.
    const wasm = Buffer.alloc(4096, 7);
    await fs.writeFile(path.join(webDist, "assets", "lint-abc123.wasm"), wasm);
    await fs.writeFile(path.join(webDist, "assets", "lint-abc123.wasm.br"), zlib.brotliCompressSync(wasm));
    await fs.writeFile(path.join(webDist, "assets", "lint-abc123.wasm.gz"), zlib.gzipSync(wasm));
    server = await startTestServer("embedded", { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(webDist, { recursive: true, force: true });
  });

  it("serves the web build, with client routes falling back to the bare app.html", async () => {
    for (const route of ["/", "/signin", "/code-editor-dashboard/abc", "/About"]) {
      const res = await fetch(`${server.url}${route}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("<title>Ensemble</title>");
    }
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.headers.get("cache-control")).toContain("immutable");
  });

  it("keeps a named image a week, compressed; index.html is revalidated however it is asked for", async () => {
    const image = await fetch(`${server.url}/images/logo.svg`, { headers: { "accept-encoding": "br" } });
    expect(image.headers.get("cache-control")).toBe("public, max-age=604800");
    expect(image.headers.get("content-encoding")).toBe("br");
    expect(image.headers.get("etag")).toBeTruthy();
    expect(await image.text()).toContain("<svg");
    for (const route of ["/", "/index.html", "/signin"]) {
      const page = await fetch(`${server.url}${route}`, { headers: { "accept-encoding": "br" } });
      expect(page.headers.get("cache-control"), route).toBe("no-cache");
      expect(page.headers.get("content-encoding"), route).toBe("br");
      expect(page.headers.get("content-type"), route).toContain("text/html");
      expect(await page.text(), route).toContain("<title>Ensemble</title>");
    }
    const plain = await fetch(`${server.url}/`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("<p>landing</p>");
  });

  it("answers a prerendered page's path with its own page, compressed and revalidated like index.html", async () => {
    for (const name of ["signin", "documentation"]) {
      const page = await fetch(`${server.url}/${name}?from=nav`, { headers: { "accept-encoding": "br" } });
      expect(page.status, name).toBe(200);
      expect(page.headers.get("cache-control"), name).toBe("no-cache");
      expect(page.headers.get("content-encoding"), name).toBe("br");
      expect(page.headers.get("content-type"), name).toContain("text/html");
      const html = await page.text();
      expect(html, name).toContain(`<p>${name} page</p>`);
      expect(html, name).not.toContain("<p>landing</p>");
    }
    const plain = await fetch(`${server.url}/signin`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("<p>signin page</p>");
    // Only the exact path: a page below it, or another page, gets the bare page, not the landing's.
    for (const route of ["/signin/more", "/documentation/x", "/introduction", "/code-editor-dashboard/abc"]) {
      const html = await (
        await fetch(`${server.url}${route}`, { headers: { "accept-encoding": "br" } })
      ).text();
      expect(html, route).toContain("<p>shell</p>");
      expect(html, route).not.toContain("<p>landing</p>");
    }
    expect(await (await fetch(`${server.url}/app`)).text()).toContain("<p>shell</p>");
  });

  it("sends an asset's brotli or gzip copy to a browser that accepts it, and the plain file otherwise", async () => {
    const url = `${server.url}/assets/lint-abc123.wasm`;
    const asked = async (acceptEncoding: string) => {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(url, { headers: { "accept-encoding": acceptEncoding } }, resolve).on("error", reject),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return { headers: res.headers, body: Buffer.concat(chunks) };
    };
    const brotli = await asked("gzip, deflate, br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toBe("application/wasm");
    expect(brotli.headers.vary).toContain("Accept-Encoding");
    expect(brotli.headers["cache-control"]).toContain("immutable");
    expect(zlib.brotliDecompressSync(brotli.body)).toEqual(Buffer.alloc(4096, 7));
    const gzip = await asked("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body)).toEqual(Buffer.alloc(4096, 7));
    const plain = await asked("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toEqual(Buffer.alloc(4096, 7));
    expect((await fetch(`${server.url}/assets/missing-abc123.js`)).status).toBe(404);
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
