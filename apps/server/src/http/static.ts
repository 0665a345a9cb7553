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

/** The build writes brotli and gzip copies beside its files: brotli first when both are accepted. */
const COMPRESSED = { enableBrotli: true, orderPreference: ["br", "gzip"] };

/**
 * Serves the production web build: hashed assets cached for a year, the named files (images)
 * for a week, each compressed when the browser accepts it; every other GET that is not an API
 * or socket path answered with index.html (revalidated on every visit) so client routes
 * survive a reload.
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
  // Every other page is index.html, sent as the named files are (its compressed copy when the
  // browser accepts one, revalidated on every visit).
  router.get(/^(?!\/(api|socket\.io)(\/|$)).*/, (req, res, next) => {
    req.url = "/index.html";
    named(req, res, next);
  });
  return router;
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
 * The CSP hashes (`sha256-…`) of the inline scripts in the build's index.html (the one that
 * clears the prerendered landing page on other paths), read once at start: the policy allows
 * exactly these and no other inline script.
 */
export function inlineScriptHashes(distDir: string): string[] {
  const indexFile = path.join(distDir, "index.html");
  if (!fs.existsSync(indexFile)) return [];
  const html = fs.readFileSync(indexFile, "utf8");
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}`,
  );
}
