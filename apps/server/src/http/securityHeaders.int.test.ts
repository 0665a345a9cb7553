import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness";
import { INLINE_SCRIPT, writeWebBuild } from "../../test/webBuild";

/** The policy's directives by name, each with its sources. */
function directives(header: string | null): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const part of (header ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) parsed.set(name, sources);
  }
  return parsed;
}

/** Issue 13 item 3: every response carries the security headers; the CSP allows our origin only. */
describe("security headers", () => {
  let server: TestServer;
  let webDir: string;

  beforeAll(async () => {
    webDir = await writeWebBuild(await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-web-")));
    server = await startTestServer("postgres", {
      WEB_DIST: webDir,
      ALLOWED_HOSTS: "localhost,127.0.0.1,[::1]",
    });
  });
  afterAll(async () => {
    await server.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  const pages = [
    "/",
    "/code-editor-dashboard/AbCdEfGhIjKlMnOpQrStUvWx",
    "/api/health",
    "/api/nope",
    "/assets/app-1.js",
  ];

  it("sends the CSP, nosniff, no Referer, COOP, no framing and the Permissions-Policy on pages, assets and the API", async () => {
    const inlineHash = `'sha256-${createHash("sha256").update(INLINE_SCRIPT).digest("base64")}'`;
    for (const pathname of pages) {
      const res = await fetch(`${server.url}${pathname}`);
      expect(res.status, pathname).toBeLessThan(500);
      const csp = directives(res.headers.get("content-security-policy"));
      expect(Object.fromEntries(csp), pathname).toEqual({
        "default-src": ["'self'"],
        // Our files, WebAssembly compilation (Ruff in the browser) and the one inline script of
        // index.html, by its hash: no 'unsafe-inline', no eval.
        "script-src": ["'self'", "'wasm-unsafe-eval'", inlineHash],
        "script-src-attr": ["'none'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": [
          "'self'",
          "ws://localhost:*",
          "wss://localhost:*",
          "ws://127.0.0.1:*",
          "wss://127.0.0.1:*",
        ],
        "media-src": ["'self'", "blob:", "mediastream:"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      });
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect(res.headers.get("permissions-policy")).toBe(
        "camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=(), usb=()",
      );
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("names PUBLIC_URL's socket origin when one is set, and nothing else outside 'self'", async () => {
    const behindProxy = await startTestServer("postgres", {
      WEB_DIST: webDir,
      PUBLIC_URL: "https://code.example",
    });
    try {
      const res = await fetch(`${behindProxy.url}/code-editor-dashboard/x`);
      const csp = directives(res.headers.get("content-security-policy"));
      expect(csp.get("connect-src")).toEqual(["'self'", "wss://code.example"]);
    } finally {
      await behindProxy.close();
    }
  });
});
