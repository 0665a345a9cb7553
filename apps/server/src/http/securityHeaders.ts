import type { RequestHandler } from "express";
import helmet from "helmet";
import type { OriginConfig } from "./auth";

/** Hosts a CSP source may name (no IPv6 literal, no `_`: the CSP grammar has neither). */
const CSP_HOST = /^[a-z0-9.-]+(:\d+)?$/;

/**
 * Our own socket origins for `connect-src` (a browser that predates CSP 3 does not count
 * ws: and wss: as 'self'): PUBLIC_URL's, else each allowed host's, at any port when bare.
 */
function socketSources(config: OriginConfig): string[] {
  if (config.PUBLIC_URL) {
    const url = new URL(config.PUBLIC_URL);
    return [`${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`];
  }
  return config.ALLOWED_HOSTS.filter((host) => CSP_HOST.test(host)).flatMap((host) => {
    const source = /:\d+$/.test(host) ? host : `${host}:*`;
    return [`ws://${source}`, `wss://${source}`];
  });
}

/**
 * The headers every response carries: a Content-Security-Policy that allows our origin only
 * (scripts: our files and the hashes of index.html's inline scripts; styles inline too, since
 * Monaco injects its own; media and images also from blob: and data: URLs we make; workers
 * from our files; no framing), nosniff, no Referer, Cross-Origin-Opener-Policy same-origin,
 * HSTS, and a Permissions-Policy that grants camera, microphone and screen capture to us alone.
 */
export function securityHeaders(config: OriginConfig, inlineScriptHashes: string[]): RequestHandler[] {
  const permissions = [
    "camera=(self)",
    "microphone=(self)",
    "display-capture=(self)",
    "geolocation=()",
    "payment=()",
    "usb=()",
  ].join(", ");
  return [
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          // 'wasm-unsafe-eval' compiles WebAssembly (Ruff's linter and formatter, run in the
          // browser); it allows no eval() of JavaScript.
          "script-src": ["'self'", "'wasm-unsafe-eval'", ...inlineScriptHashes.map((hash) => `'${hash}'`)],
          "script-src-attr": ["'none'"],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:", "blob:"],
          "font-src": ["'self'"],
          "connect-src": ["'self'", ...socketSources(config)],
          "media-src": ["'self'", "blob:", "mediastream:"],
          "worker-src": ["'self'"],
          "object-src": ["'none'"],
          "base-uri": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
        },
      },
      crossOriginOpenerPolicy: { policy: "same-origin" },
      referrerPolicy: { policy: "no-referrer" },
      // HTTPS from then on for this host (browsers ignore it over plain HTTP); which other
      // hosts of the domain must use HTTPS is not ours to decide.
      strictTransportSecurity: { maxAge: 365 * 24 * 3600, includeSubDomains: false },
      xFrameOptions: { action: "deny" },
    }),
    (_req, res, next) => {
      res.setHeader("permissions-policy", permissions);
      next();
    },
  ];
}
