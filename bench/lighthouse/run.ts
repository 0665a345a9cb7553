// Lighthouse's default run (mobile, simulated throttling) on pages of the production build: the
// landing page, sign-in, documentation and an editor route (a signed-in host's session). The
// server on a temp DATA_DIR, Debian's Chromium fresh for each run (a new profile, so no cache
// carries over), medians of BENCH_RUNS runs per page. Writes results.json, each run's full
// report in runs/ (not committed) and the part of RESULTS.md below its marker.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse, { type Result } from "lighthouse";
import { chromium as playwright } from "playwright-core";
import { createHostedSession, type HostedSession } from "../calls/server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium";
import { ROOT, requireBuild, startServer, stopProcess } from "../lib/server";
import { median } from "../lib/stats";
import { storeHost } from "./signIn";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// BENCH_PORT: another free port, when two of us run benchmarks on one machine.
const PORT = Number(process.env.BENCH_PORT ?? 3890);
/** The pages, by path; `editor` is a session's editor route, opened by its signed-in host. */
const PAGES = (process.env.BENCH_PAGES ?? process.env.BENCH_PAGE ?? "/,/signin,/documentation,editor")
  .split(",")
  .filter(Boolean);
const EDITOR = "editor";
// Lighthouse drives it over the DevTools protocol, on a port Chromium picks.
const LIGHTHOUSE_FLAGS = ["--headless=new", ...CHROMIUM_FLAGS, "--remote-debugging-port=0"];

/** Starts Chromium on a fresh profile; resolves with its DevTools port once it listens. */
async function startChromium(profile: string): Promise<{ child: ChildProcess; port: number }> {
  // Its own process group, so that stopping it stops its renderers and helpers too.
  const child = spawn(CHROMIUM_PATH, [...LIGHTHOUSE_FLAGS, `--user-data-dir=${profile}`, "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = stderr.match(/DevTools listening on ws:\/\/[^:]+:(\d+)\//);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`chromium exited with ${code}: ${stderr}`)));
  });
  return { child, port };
}

interface Sample {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  totalBytes: number;
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;

function sampleOf(lhr: Result): Sample {
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    speedIndexMs: numeric(lhr, "speed-index"),
    totalBytes: numeric(lhr, "total-byte-weight"),
  };
}

/** What the run says is worth fixing: failed audits that carry savings or a finding, worst first. */
function findings(lhr: Result): string[] {
  const ids = lhr.categories.performance?.auditRefs.map((ref) => ref.id) ?? [];
  return ids
    .map((id) => lhr.audits[id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 0.9)
    .filter((audit) => audit?.scoreDisplayMode !== "informative" || audit.displayValue)
    .map((audit) => `${audit?.title}${audit?.displayValue ? `: ${audit.displayValue}` : ""}`);
}

/**
 * Signs the host in on a profile before Lighthouse runs: their token in the origin's storage,
 * written on `/api/health` so that no page of the app (and nothing in the HTTP cache) is
 * loaded first. Lighthouse then keeps the storage (`disableStorageReset`).
 */
async function signIn(port: number, host: HostedSession) {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await storeHost(page, `http://127.0.0.1:${PORT}`, host);
    await page.close();
  } finally {
    // Disconnects; the browser itself is Lighthouse's.
    await browser.close();
  }
}

interface PageResult {
  page: string;
  path: string;
  samples: Sample[];
  reports: Result[];
}

async function measure(page: string, host: HostedSession): Promise<PageResult> {
  const isEditor = page === EDITOR;
  const pagePath = isEditor ? `/code-editor-dashboard/${host.sessionId}` : page;
  const samples: Sample[] = [];
  const reports: Result[] = [];
  for (let run = 0, failures = 0; run < RUNS; run++) {
    const profile = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-chromium-"));
    const chromium = await startChromium(profile);
    try {
      if (isEditor) await signIn(chromium.port, host);
      const result = await lighthouse(`http://127.0.0.1:${PORT}${pagePath}`, {
        port: chromium.port,
        logLevel: "error",
        output: "json",
        disableStorageReset: isEditor,
      });
      if (!result) throw new Error("lighthouse returned no result");
      if (result.lhr.runtimeError) {
        // Lighthouse now and then loses a trace (NO_NAVSTART): that run again, twice at most.
        if (++failures > 2) throw new Error(`lighthouse: ${result.lhr.runtimeError.message}`);
        console.warn(`${page} run ${run + 1}: ${result.lhr.runtimeError.code}, once more`);
        run--;
        continue;
      }
      reports.push(result.lhr);
      samples.push(sampleOf(result.lhr));
      const name = page.replace(/\W+/g, "") || "landing";
      writeFileSync(path.join(runsDir, `${name}-run-${run + 1}.json`), JSON.stringify(result.lhr));
      console.log(`${page} run ${run + 1}:`, sampleOf(result.lhr));
    } finally {
      await stopProcess(chromium.child, { group: true });
      // Chromium's helpers may still be writing the profile for a moment after it exits.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  }
  return { page, path: pagePath, samples, reports };
}

const runsDir = path.join(import.meta.dirname, "runs");
mkdirSync(runsDir, { recursive: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-bench-lighthouse-"));
requireBuild(path.join(ROOT, "apps/web/dist"));
const server = await startServer({ port: PORT, env: { DATA_DIR: dataDir } });
const results: PageResult[] = [];
try {
  const host = await createHostedSession(`http://127.0.0.1:${PORT}`, "lighthouse");
  for (const page of PAGES) results.push(await measure(page, host));
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

function summaryOf({ samples, reports }: PageResult) {
  const summary = Object.fromEntries(
    (Object.keys(samples[0] ?? {}) as (keyof Sample)[]).map((key) => [
      key,
      median(samples.map((s) => s[key])),
    ]),
  ) as unknown as Sample;
  // The run whose performance score is the median one speaks for the findings.
  const medianRun = reports[samples.findIndex((s) => s.performance === summary.performance)] ?? reports[0];
  const lcpElement = medianRun?.audits["largest-contentful-paint-element"]?.details;
  const lcpNode =
    lcpElement?.type === "list" && lcpElement.items[0]?.type === "table"
      ? lcpElement.items[0].items[0]?.node
      : undefined;
  const lcpSnippet = lcpNode && typeof lcpNode === "object" && "snippet" in lcpNode ? lcpNode.snippet : "";
  return { summary, medianRun, lcpSnippet };
}

const date = new Date().toISOString();
const summaries = results.map((result) => ({ result, ...summaryOf(result) }));
const lighthouseVersion = summaries[0]?.medianRun?.lighthouseVersion;
writeFileSync(
  path.join(import.meta.dirname, "results.json"),
  `${JSON.stringify(
    {
      date,
      lighthouse: lighthouseVersion,
      pages: summaries.map(({ result, summary }) => ({
        page: result.page,
        summary,
        samples: result.samples,
      })),
    },
    null,
    2,
  )}\n`,
);

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const row = (name: string, s: Sample) =>
  `| ${name} | ${s.performance} | ${s.accessibility} | ${s.bestPractices} | ${seconds(s.lcpMs)} | ${seconds(s.fcpMs)} | ${Math.round(s.tbtMs)} ms | ${s.cls.toFixed(3)} | ${seconds(s.speedIndexMs)} | ${Math.round(s.totalBytes / 1024)} KiB |`;
const marker = "<!-- Everything below is written by run.ts. -->";
const resultsFile = path.join(import.meta.dirname, "RESULTS.md");
const head = existsSync(resultsFile) ? (readFileSync(resultsFile, "utf8").split(marker)[0] ?? "") : "";
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const agent = summaries[0]?.medianRun?.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "Chromium";
const body = [
  marker,
  "",
  `Run ${date} on ${os.cpus().length} cores (${cpu}), load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(
      ", ",
    )} at the end, Node ${process.version}, Lighthouse ${lighthouseVersion}, ${agent}; ${RUNS} runs a page, medians. Bytes: what Lighthouse counts as transferred (compressed where the server compressed).`,
  "",
  "| page | performance | accessibility | best practices | LCP | FCP | TBT | CLS | Speed Index | bytes |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...summaries.map(({ result, summary }) =>
    row(`\`${result.page === EDITOR ? "/code-editor-dashboard/:id" : result.page}\``, summary),
  ),
  "",
  ...summaries.flatMap(({ result, medianRun, lcpSnippet }) => [
    `### \`${result.page === EDITOR ? "/code-editor-dashboard/:id" : result.page}\``,
    "",
    "| run | performance | accessibility | best practices | LCP | FCP | TBT | CLS | Speed Index | bytes |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...result.samples.map((s, i) => row(`${i + 1}`, s)),
    "",
    `LCP element: \`${lcpSnippet}\``,
    "",
    "What the median run still flags:",
    "",
    ...(medianRun ? findings(medianRun).map((line) => `- ${line}`) : []),
    "",
  ]),
].join("\n");
writeFileSync(resultsFile, `${head}${body}`);
console.log(body);
