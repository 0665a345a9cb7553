import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type RequestHandler, Router } from "express";
import expressStaticGzip from "express-static-gzip";

/**
 * How long a browser keeps a file whose name carries no hash before asking again. A week: an
 * image changed in place reaches everyone within it; the hashed assets keep a year.
 */
const NAMED_FILE_LIFETIME = "7d";

/** The build's page with an empty #root, for every path it prerendered no page for. */
const SHELL_FILE = "app.html";

/** The build writes brotli and gzip copies beside its files: brotli first when both are accepted. */
const COMPRESSED = { enableBrotli: true, orderPreference: ["br", "gzip"] };

/**
 * Serves the production web build: hashed assets cached for a year, the named files (images)
 * for a week, each compressed when the browser accepts it; a page the build prerendered into
 * its own HTML file (`/signin`: signin.html) answered with it, and every other GET that is not
 * an API or socket path with the bare app.html (each revalidated on every visit) so client
 * routes survive a reload.
 */
export function webApp(distDir: string): Router {
  const router = Router();
  const indexFile = path.join(distDir, "index.html");
  if (!fs.existsSync(indexFile)) {
    router.use(missingBuild(distDir));
    return router;
  }
  // The build writes brotli and gzip copies beside the hashed assets: a browser that accepts
  // one gets it (Vary: Accept-Encoding). A missing asset is a 404 (index.html in its place
  // would reach a script tag as HTML).
  const assets = expressStaticGzip(path.join(distDir, "assets"), {
    ...COMPRESSED,
    serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
  });
  router.use("/assets", assets);
  // The files kept under their own names (the images and the icon): a week, then revalidated by
  // their ETag, compressed copies too; an HTML file is always revalidated, as index.html is.
  const named = expressStaticGzip(distDir, {
    ...COMPRESSED,
    index: false,
    serveStatic: {
      index: false,
      maxAge: NAMED_FILE_LIFETIME,
      setHeaders: (res, file) => {
        // The file sent may be the compressed copy (`index.html.br`).
        if (/\.html(\.br|\.gz)?$/.test(file)) res.setHeader("cache-control", "no-cache");
      },
    },
  });
  // A malformed %-escape is no file's name: it goes on to the app's page (which says "not
  // found"), where express-static-gzip would answer 400.
  router.use((req, res, next) => (isDecodable(req.path) ? named(req, res, next) : next()));
  // A prerendered page is its own HTML file, every other page the app's bare shell (app.html:
  // index.html without the landing page's markup, whose images the editor route would otherwise
  // download first), sent as the named files are (the compressed copy when the browser accepts
  // one, revalidated on every visit). A build without the shell falls back to index.html.
  const pages = prerenderedPages(distDir);
  const shell = fs.existsSync(path.join(distDir, SHELL_FILE)) ? `/${SHELL_FILE}` : "/index.html";
  router.get(/^(?!\/(api|socket\.io)(\/|$)).*/, (req, res, next) => {
    req.url = pages.get(req.path) ?? shell;
    named(req, res, next);
  });
  return router;
}

/**
 * The pages the build prerendered, by path: `/` → `/index.html`, `/signin` → `/signin.html`.
 * Read once at start, like the build's other files.
 */
function prerenderedPages(distDir: string): Map<string, string> {
  const files = htmlFiles(distDir).filter((file) => file !== "index.html" && file !== SHELL_FILE);
  return new Map([
    ["/", "/index.html"],
    ...files.map((file): [string, string] => [`/${file.slice(0, -".html".length)}`, `/${file}`]),
  ]);
}

/** The HTML files at the top of the build (index.html and the prerendered pages). */
function htmlFiles(distDir: string): string[] {
  return fs.readdirSync(distDir).filter((file) => file.endsWith(".html"));
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function missingBuild(distDir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" || req.path.startsWith("/api")) return next();
    res.status(503).type("text").send(`The web build is missing (${distDir}). Run: npm run build`);
  };
}

/**
 * The CSP hashes (`sha256-…`) of the inline scripts in the build's pages (index.html's, which
 * clears a prerendered page on other paths, copied into each prerendered page), each once,
 * read at start: the policy allows exactly these and no other inline script.
 */
export function inlineScriptHashes(distDir: string): string[] {
  if (!fs.existsSync(path.join(distDir, "index.html"))) return [];
  const hashes = htmlFiles(distDir).flatMap((file) => {
    const html = fs.readFileSync(path.join(distDir, file), "utf8");
    return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      ([, body]) =>
        `sha256-${createHash("sha256")
          .update(body ?? "")
          .digest("base64")}`,
    );
  });
  return [...new Set(hashes)];
}
