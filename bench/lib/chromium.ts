/**
 * Debian's Chromium as the e2e suite (e2e/playwright.config.ts) and every browser bench launch
 * it, defined once so a bench measures the browser the tests drive. Chromium runs as root here
 * and the machine has no network but localhost.
 */

/** The Chromium binary: `CHROMIUM_PATH` (or `CHROMIUM`), else Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROMIUM ?? "/usr/bin/chromium";

/** No sandbox (root), no GPU, and nothing that would reach beyond the machine. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/** Calls: fake camera, microphone and screen, granted without a prompt (notes A6), and autoplay. */
export const CHROMIUM_MEDIA_FLAGS = [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  "--allow-loopback-in-peer-connection",
  "--autoplay-policy=no-user-gesture-required",
] as const;

/** The whole launch list of the e2e suite: what a bench driving the editor passes too. */
export const CHROMIUM_E2E_FLAGS = [...CHROMIUM_FLAGS, ...CHROMIUM_MEDIA_FLAGS];
