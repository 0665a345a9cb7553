/**
 * Debian's Chromium as every browser bench launches it: the e2e suite's flags, so a bench
 * measures the browser the tests drive. Chromium runs as root here and the machine has no
 * network but localhost.
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

/** The media flags of e2e/playwright.config.ts: fake camera, microphone and screen, autoplay. */
export const CHROMIUM_MEDIA_FLAGS = [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  "--allow-loopback-in-peer-connection",
  "--autoplay-policy=no-user-gesture-required",
] as const;

/** The whole launch list of e2e/playwright.config.ts: what a bench driving the editor passes. */
export const CHROMIUM_E2E_FLAGS = [...CHROMIUM_FLAGS, ...CHROMIUM_MEDIA_FLAGS];
