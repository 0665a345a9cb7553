/**
 * Code intelligence (issue 30; see README.md): in Debian's headless Chromium, on a session of
 * 200 files, the time from opening a file to its first diagnostics and from the `.` keypress
 * to a completion list holding the expected member, for TypeScript and Python (served in the
 * browser) and C (clangd, served by our server); the web build's chunks; the server's memory
 * with and without a language server. Writes RESULTS.md beside this file (or in BENCH_OUT).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { createHostedSession, startServer } from "../calls/server";
import { joinSession, ourSocket } from "../collab/ourSocket";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium";
import { table } from "../lib/markdown";
import { processTree, rssBytes } from "../lib/processes";
import { ROOT } from "../lib/server";
import { quantile } from "../lib/stats";
import { createFiles, SCENARIOS, type Scenario, workspaceFiles } from "./workspace";

const env = process.env;
const PORT = Number(env.BENCH_PORT ?? 3490);
const SAMPLES = Number(env.BENCH_SAMPLES ?? 50);
const WARMUP = 3;
/** The time between two keys of the receiver and before the `.`. */
const KEY_GAP_MS = 100;
const TIMEOUT_MS = Number(env.BENCH_TIMEOUT_MS ?? 10_000);
const OUT_DIR = env.BENCH_OUT ?? import.meta.dirname;
const WEB_ASSETS = path.join(ROOT, "apps/web/dist-e2e/assets");

// tsx compiles with esbuild's keepNames: functions sent to the page call `__name`.
const KEEP_NAMES_SHIM = "globalThis.__name = (fn) => fn;";

// The editor's hook (`window.__ensemble`) is declared by calls/participant.ts.
declare global {
  interface Window {
    __intelligenceBench?: { keyAt: number; shownAt: number; expected: string };
  }
}

interface ScenarioResult {
  scenario: Scenario;
  firstDiagnosticsMs: number | null;
  firstErrorMs: number | null;
  firstCompletionMs: number | null;
  samples: number[];
  failures: number;
}

/** Opens a file from the explorer, expanding its folders, and waits until the editor shows it. */
async function openFile(page: Page, filePath: string) {
  const segments = filePath.split("/");
  for (let i = 1; i < segments.length; i++) {
    const folder = page.locator(`[role="treeitem"][data-path="${segments.slice(0, i).join("/")}"]`);
    if ((await folder.getAttribute("aria-expanded")) === "false")
      await folder.locator(":scope > .tree-row").click();
  }
  await page.locator(`[role="treeitem"][data-path="${filePath}"] > .tree-row`).click();
  await page.locator(`[data-testid="code-editor"][data-file="${filePath}"]`).waitFor();
}

/** Records the `.` keydown and the first completion list holding `expected`, in the page's clock. */
function watchCompletion(expected: string) {
  const state = { keyAt: 0, shownAt: 0, expected };
  window.__intelligenceBench = state;
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "." && state.keyAt === 0) state.keyAt = performance.now();
  };
  document.addEventListener("keydown", onKey, true);
  const observer = new MutationObserver(() => {
    if (state.keyAt === 0 || state.shownAt !== 0) return;
    // Shown as the person sees it: the widget drawn with the member's row. Not its `visible`
    // class, which Monaco adds 100 ms after drawing it (a hook for styles, none in its CSS).
    const widget = document.querySelector<HTMLElement>(".suggest-widget");
    if (!widget?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return;
    const rows = Array.from(widget.querySelectorAll<HTMLElement>(".monaco-list-row .label-name"));
    if (rows.some((row) => row.textContent?.trim() === state.expected && row.checkVisibility())) {
      state.shownAt = performance.now();
      observer.disconnect();
      document.removeEventListener("keydown", onKey, true);
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** One keypress-to-list sample: a new last line, the receiver, then `.`; the line is deleted after. */
async function completionSample(page: Page, scenario: Scenario): Promise<number | null> {
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  // At a typist's pace (the collab bench's: 60-150 ms between keys), not all at once: a
  // receiver typed in one instant leaves the list asked for its last letter still computing
  // when the `.` comes, which no person sees (pyright in a worker cannot be interrupted).
  await page.keyboard.type(scenario.receiver, { delay: KEY_GAP_MS });
  await page.evaluate(watchCompletion, scenario.expected);
  await page.waitForTimeout(KEY_GAP_MS);
  await page.keyboard.press(".");
  const shown = await page
    .waitForFunction(() => (window.__intelligenceBench?.shownAt ?? 0) > 0, null, { timeout: TIMEOUT_MS })
    .then(() => true)
    .catch(() => false);
  const took = await page.evaluate(() => {
    const state = window.__intelligenceBench;
    return state && state.shownAt > 0 ? state.shownAt - state.keyAt : null;
  });
  await page.keyboard.press("Escape");
  // Delete Line, once: the new last line goes with the line break before it, and the file is as
  // the sample found it (checked: a sample that ate a line of the file would measure another file).
  await page.keyboard.press("Control+Shift+K");
  await page.waitForFunction(
    ({ path, text }) => window.__ensemble?.text(path) === text,
    { path: scenario.path, text: scenario.text },
    { timeout: 5_000 },
  );
  return shown ? took : null;
}

async function runScenario(page: Page, scenario: Scenario): Promise<ScenarioResult> {
  const opened = performance.now();
  await openFile(page, scenario.path);
  const editor = `[data-testid="code-editor"][data-file="${scenario.path}"]`;
  const firstSquiggle = (selector: string) =>
    page
      .locator(selector)
      .first()
      .waitFor({ timeout: 30_000 })
      .then(() => performance.now() - opened)
      .catch(() => null);
  // Any finding first (Ruff marks an undefined name as a warning while pyright loads), then
  // the scenario's error, which for Python only pyright marks as one.
  const [firstDiagnosticsMs, firstErrorMs] = await Promise.all([
    firstSquiggle(`${editor} .squiggly-error, ${editor} .squiggly-warning`),
    firstSquiggle(`${editor} .squiggly-error`),
  ]);
  await page.locator('[data-testid="code-editor"] .view-lines').click();
  const samples: number[] = [];
  let failures = 0;
  let firstCompletionMs: number | null = null;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const took = await completionSample(page, scenario);
    if (i === 0) firstCompletionMs = took;
    if (i < WARMUP) continue;
    if (took === null) failures++;
    else samples.push(took);
  }
  console.log(
    `${scenario.name}: first diagnostics ${fmt(firstDiagnosticsMs)} ms (error ${fmt(firstErrorMs)} ms), completion p50 ${fmt(quantile(samples, 0.5))} ms, p99 ${fmt(quantile(samples, 0.99))} ms, ${failures} failed`,
  );
  return { scenario, firstDiagnosticsMs, firstErrorMs, firstCompletionMs, samples, failures };
}

/**
 * The web build's scripts and WebAssembly of 50 kB and more: raw, and the gzip and brotli
 * copies the build wrote beside them, which the server sends ("-" when there is none).
 */
function chunks(): string[][] {
  const sizeOf = (name: string) => {
    const file = path.join(WEB_ASSETS, name);
    return existsSync(file) ? kb(statSync(file).size) : "-";
  };
  return readdirSync(WEB_ASSETS)
    .filter((name) => /\.(js|wasm)$/.test(name))
    .map((name) => ({ name, size: statSync(path.join(WEB_ASSETS, name)).size }))
    .filter(({ size }) => size >= 50_000)
    .sort((a, b) => b.size - a.size)
    .map(({ name, size }) => [name, kb(size), sizeOf(`${name}.gz`), sizeOf(`${name}.br`)]);
}

/** The processes of a language server below the server: their count and resident memory. */
function languageServers(serverPid: number): { count: number; rssMb: number } {
  const pids = processTree(serverPid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith("clangd");
    } catch {
      return false;
    }
  });
  return { count: pids.length, rssMb: pids.reduce((sum, pid) => sum + rssBytes(pid), 0) / 2 ** 20 };
}

const fmt = (value: number | null) => (value === null || Number.isNaN(value) ? "n/a" : value.toFixed(1));
const kb = (bytes: number) => (bytes / 1024).toFixed(0);

async function main() {
  const loadBefore = os.loadavg().map((n) => n.toFixed(2));
  const server = await startServer(PORT);
  let browser: Browser | undefined;
  const results: ScenarioResult[] = [];
  const memory: string[][] = [];
  try {
    const host = await createHostedSession(server.url, "intelligence");
    const socket = ourSocket(server.url, host.token);
    await joinSession(socket, host.sessionId);
    await createFiles(socket, host.sessionId, workspaceFiles());
    socket.close();

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
    await context.addInitScript({ content: KEEP_NAMES_SHIM });
    await context.addInitScript(
      ([token, user]) => {
        localStorage.setItem("token", token);
        localStorage.setItem("user", user);
      },
      [host.token, JSON.stringify(host.user)] as const,
    );
    const page = await context.newPage();
    await page.goto(`/code-editor-dashboard/${host.sessionId}`);
    await page.waitForFunction(() => window.__ensemble?.ready === true && window.__ensemble.synced, null, {
      timeout: 30_000,
    });
    memory.push([
      "session open, no file of a server language",
      mb(rssBytes(server.pid)),
      ...servers(server.pid),
    ]);
    for (const scenario of SCENARIOS) {
      results.push(await runScenario(page, scenario));
      memory.push([`after ${scenario.name}`, mb(rssBytes(server.pid)), ...servers(server.pid)]);
    }
  } finally {
    await browser?.close();
    await server.stop();
  }

  const section = `# Code intelligence

Produced by \`npm run bench:intelligence -w bench\` (\`intelligence/run.ts\`) after \`npm run build\`
and \`npm run build:e2e\`. Date ${new Date().toISOString()}; ${os.availableParallelism()} cores
(${os.cpus()[0]?.model ?? "n/a"}); load average ${loadBefore.join(", ")} at start. One
person in Debian's headless Chromium, on a session of 200 files (120 TypeScript modules, 40
Python modules, 37 C headers and the three files below). Times in ms.

## Keypress to completion list, and first diagnostics

Each sample types a new last line with the receiver, ${KEY_GAP_MS} ms between keys, then \`.\`; the time is from the \`.\`'s
keydown to the first completion list (Monaco's suggest widget, drawn) showing the expected
member, both in the page's clock. (Before 27 Nov the bench waited for the widget's \`visible\`
class, which Monaco adds 100 ms after drawing it, and its clean-up deleted a line of the file
with each sample: those figures were 100 ms too high and, after the first samples, measured
a file without its receiver.) ${WARMUP} warm-up samples are left out (the first is shown alone),
then ${SAMPLES} are measured. First diagnostics: from the click on the file in the explorer to
the first squiggle, error or warning; first error: to the first error squiggle (for Python,
Ruff marks the undefined name as a warning within a second, pyright as an error once loaded).
Each service starts when the editor first shows a file of its language, so each scenario's
first figures include its service's start. Targets: in the browser p50 ≤ 50, p99 ≤ 200; clangd p50 ≤ 100, p99
≤ 400; first diagnostics TypeScript ≤ 1500, Python ≤ 2000, C ≤ 3000.

${table(
  [
    "service",
    "where",
    "file",
    "first diagnostics",
    "first error",
    "first completion",
    "p50",
    "p99",
    "failed",
  ],
  results.map((r) => [
    r.scenario.name,
    r.scenario.where,
    r.scenario.path,
    fmt(r.firstDiagnosticsMs),
    fmt(r.firstErrorMs),
    fmt(r.firstCompletionMs),
    fmt(quantile(r.samples, 0.5)),
    fmt(quantile(r.samples, 0.99)),
    String(r.failures),
  ]),
)}

## Server memory

The server's resident memory, and its language servers' (clangd below it), as the bench
moves from one language to the next. Target: no language server while only JS/TS/Python
are used; each clangd under its limit and their count capped.

${table(["moment", "server RSS (MB)", "language servers", "their RSS (MB)"], memory)}

## Chunks of the web build (kB)

Every script and WebAssembly file of 50 kB and more in \`apps/web/dist-e2e/assets\`, largest
first; language chunks load on demand. gzip and brotli are the copies the build writes beside
each asset (brotli quality 9), which the server sends to a browser that accepts them.

${table(["file", "raw", "gzip (sent)", "brotli (sent)"], chunks())}
`;
  writeFileSync(path.join(OUT_DIR, "RESULTS.md"), section);
  console.log(`written ${path.join(OUT_DIR, "RESULTS.md")}`);
}

function servers(pid: number): string[] {
  const { count, rssMb } = languageServers(pid);
  return [String(count), rssMb.toFixed(0)];
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

await main();
