import { createHash } from "node:crypto";
import { expect, guardContext, test } from "../support/fixtures";

test("the production build is served with its CSP and without source maps", async ({ request }) => {
  const index = await request.get("/code-editor-dashboard/AbCdEfGhIjKlMnOpQrStUvWx");
  const csp = index.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  // The build's inline scripts (index.html's, app.html's editor preload) are allowed by their
  // hashes, no other inline script is; WebAssembly may compile (Ruff), JavaScript may not be eval'd.
  expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);

  const html = await index.text();
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
  expect(inline.length).toBeGreaterThan(0);
  for (const [, body] of inline)
    expect(csp).toContain(
      `'sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}'`,
    );
  const entries = [...html.matchAll(/<script[^>]*\bsrc="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? "");
  const preloads = [...html.matchAll(/<link[^>]*\bhref="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? "");
  const scripts = [...entries, ...preloads];
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    const body = await (await request.get(script)).text();
    expect(body, script).not.toContain("sourceMappingURL");
    expect((await request.get(`${script}.map`)).status(), `${script}.map`).toBe(404);
  }
});

test("a script our CSP refuses is refused and reported, so the suite would fail on one", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const guard = await guardContext(context);
  const page = await context.newPage();
  await page.goto("/");
  await page.evaluate(() => {
    const injected = document.createElement("script");
    injected.textContent = "document.title = 'injected'";
    document.body.append(injected);
  });
  await expect.poll(() => guard.cspViolations.length).toBeGreaterThan(0);
  expect(await page.title()).not.toBe("injected");
  await context.close();
});
