/**
 * What the editor route's main thread does while it loads: a CPU profile of a signed-in host
 * opening their session under Lighthouse's 4× CPU slowdown, from a build left unminified so
 * that components and Monaco's classes keep their names. Prints each stretch of work of 40 ms
 * or more (what Lighthouse's long tasks are made of) with the components and classes it was
 * spent in, and leaves the profile for Chromium's DevTools.
 *
 *   (cd apps/web && npx vite build --minify false --outDir /tmp/web-unminified)
 *   WEB_DIST=/tmp/web-unminified npm run bench:profile-editor -w bench
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { createHostedSession } from "../calls/server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium";
import { startServer } from "../lib/server";
import { storeHost } from "./signIn";

const PORT = Number(process.env.BENCH_PORT ?? 3892);
const WEB_DIST = process.env.WEB_DIST;
const OUT = process.env.BENCH_PROFILE ?? path.join(os.tmpdir(), "editor-load.cpuprofile");
/** A stretch ends at a gap of this much idle time (µs). */
const GAP_US = 1000;
const LONG_US = 40_000;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

if (!WEB_DIST) throw new Error("WEB_DIST: the folder of an unminified web build (see the header)");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-profile-"));
const server = await startServer({ port: PORT, env: { DATA_DIR: dataDir, WEB_DIST } });
let profile: Profile;
try {
  const host = await createHostedSession(`http://127.0.0.1:${PORT}`, "profile");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await storeHost(page, `http://127.0.0.1:${PORT}`, host);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto(`http://127.0.0.1:${PORT}/code-editor-dashboard/${host.sessionId}`);
    await page.waitForSelector(".monaco-editor", { timeout: 60_000 });
    await page.waitForTimeout(4000);
    profile = (await cdp.send("Profiler.stop")).profile as Profile;
  } finally {
    await browser.close();
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
writeFileSync(OUT, JSON.stringify(profile));

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parents = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
const isIdle = (id: number) => ["(idle)", "(program)"].includes(nodes.get(id)?.callFrame.functionName ?? "");
const file = (url: string) => url.split("/").at(-1) ?? url;

interface Stretch {
  startUs: number;
  endUs: number;
  busyUs: number;
  /** Capitalised functions of the app's scripts on the stack (components, classes): total time. */
  named: Map<string, number>;
}
const stretches: Stretch[] = [];
let now = 0;
let current: Stretch | undefined;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  now += delta;
  if (isIdle(id)) {
    if (current && now - current.endUs > GAP_US) current = undefined;
    return;
  }
  if (!current) {
    current = { startUs: now, endUs: now, busyUs: 0, named: new Map() };
    stretches.push(current);
  }
  current.busyUs += delta;
  current.endUs = now;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const frame = nodes.get(at)?.callFrame;
    if (!frame?.url.includes("/assets/") || !/^[A-Z]/.test(frame.functionName)) continue;
    const key = `${frame.functionName} (${file(frame.url)})`;
    if (seen.has(key)) continue;
    seen.add(key);
    current.named.set(key, (current.named.get(key) ?? 0) + delta);
  }
});

console.log(`profile: ${OUT} (4× CPU slowdown, so times are Lighthouse's simulated ones)`);
for (const s of stretches.filter((s) => s.busyUs >= LONG_US)) {
  const top = [...s.named].sort((a, b) => b[1] - a[1]).slice(0, 6);
  console.log(
    `${Math.round(s.busyUs / 1000)} ms at ${Math.round(s.startUs / 1000)} ms: ${top.map(([k, us]) => `${k} ${Math.round(us / 1000)}`).join(", ")}`,
  );
}
