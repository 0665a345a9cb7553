#!/usr/bin/env node
// Runs every suite (static checks, unit + integration, end-to-end) and ends with one line
// "N passed, N failed" that sums them all, as CI reads it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".test-output");
fs.mkdirSync(out, { recursive: true });

const totals = { passed: 0, failed: 0 };
const lines = [];
/** The names of failed tests, repeated in the summary so that a log's last lines say which. */
const failures = [];

const started = Date.now();
/** Each suite's wall time, shown in the summary: where a run's minutes go. */
const seconds = new Map();

async function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const begun = Date.now();
  // Asynchronous, so that the checks running in the background are timed as they end.
  const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const status = await new Promise((resolve) => {
    child.on("error", () => resolve(-1));
    child.on("exit", (code) => resolve(code));
  });
  seconds.set(label, Math.round((Date.now() - begun) / 1000));
  return status === 0;
}

function record(label, ok) {
  totals[ok ? "passed" : "failed"] += 1;
  lines.push(`${label}: ${ok ? "ok" : "FAILED"} (${seconds.get(label)} s)`);
}

/**
 * Runs checks one after another in the background while the caller goes on, their output kept
 * in a file (printed when they end, so it does not interleave with the foreground suite's).
 * Resolves when the last has ended.
 */
function checksInBackground(name, steps) {
  const log = path.join(out, `${name}.log`);
  const sink = fs.openSync(log, "w");
  const outcomes = [];
  const chain = steps.reduce(
    (previous, [label, command, args]) =>
      previous.then(
        () =>
          new Promise((resolve) => {
            const begun = Date.now();
            fs.writeSync(sink, `\n=== ${label}: ${command} ${args.join(" ")}\n`);
            const child = spawn(command, args, { cwd: root, stdio: ["ignore", sink, sink] });
            const end = (ok) => {
              seconds.set(label, Math.round((Date.now() - begun) / 1000));
              outcomes.push([label, ok]);
              resolve();
            };
            child.on("error", () => end(false));
            child.on("exit", (code) => end(code === 0));
          }),
      ),
    Promise.resolve(),
  );
  return chain.then(() => {
    fs.closeSync(sink);
    console.log(fs.readFileSync(log, "utf8"));
    for (const [label, ok] of outcomes) record(label, ok);
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

// A suite that crashed before writing its report counts as one failure, never as zero.
async function suite(label, command, args, reportFile, count, failedNames, env = {}) {
  fs.rmSync(reportFile, { force: true });
  const ok = await run(label, command, args, env);
  const report = readJson(reportFile);
  const { passed, failed } = report ? count(report) : { passed: 0, failed: 1 };
  if (report) for (const name of failedNames(report)) failures.push(`${label}: ${name}`);
  const failedHere = failed === 0 && !ok ? 1 : failed;
  totals.passed += passed;
  totals.failed += failedHere;
  lines.push(`${label}: ${passed} passed, ${failedHere} failed (${seconds.get(label)} s)`);
}

// The builds and the static checks read only the sources: they run beside the unit and
// integration tests, which wait on sockets, processes and the database more than they compute
// (one integration file at a time used 0.6 of a core). The builds go first: the end-to-end
// suites need them; the checks only have to end before the summary.
const checks = checksInBackground("checks", [
  ["build", "npm", ["run", "--silent", "build"]],
  ["end-to-end build", "npm", ["run", "--silent", "build:e2e"]],
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["lint", "npm", ["run", "--silent", "lint"]],
]);

const vitestReport = path.join(out, "vitest.json");
await suite(
  "unit + integration",
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${vitestReport}`],
  vitestReport,
  (r) => ({
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0),
  }),
  (r) =>
    (r.testResults ?? []).flatMap((file) => {
      const where = path.relative(root, file.name);
      const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      if (failed.length === 0 && file.status === "failed")
        return [`${where}: ${file.message ?? "did not run"}`];
      return failed.map((t) => `${where}: ${t.fullName}`);
    }),
);

await checks;

// Playwright's JSON report: a flaky test passed on its retry.
const playwrightCounts = (r) => ({
  passed: (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0),
  failed: (r.stats?.unexpected ?? 0) + (r.errors?.length ? 1 : 0),
});
/** Playwright's failed and flaky tests by file and title, from the nested suites of its report. */
function playwrightNames(r) {
  const names = (r.errors ?? []).map((e) => `error: ${String(e.message ?? "").split("\n")[0]}`);
  const visit = (suite, parents) => {
    // A file's suite is titled by its file name; a describe block's title joins the test's.
    const titles = suite.title && suite.title !== suite.file ? [...parents, suite.title] : parents;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected" || test.status === "flaky") {
          names.push(`${test.status}: ${spec.file}:${spec.line} ${[...titles, spec.title].join(" › ")}`);
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, titles);
  };
  for (const s of r.suites ?? []) visit(s, []);
  return names;
}
// Two runs of the end-to-end config, each starting its own server: the specs that only drive
// pages, accounts and the live document two files at a time (most of their time is spent
// waiting on the browser and the server, not computing), then the rest one at a time (see the
// projects in e2e/playwright.config.ts).
for (const [label, project, workers] of [
  ["end-to-end, two at a time", "side by side", "2"],
  ["end-to-end, one at a time", "one at a time", "1"],
]) {
  const report = path.join(out, `e2e-${workers}.json`);
  await suite(
    label,
    "npx",
    ["playwright", "test", "-c", "e2e/playwright.config.ts", "--project", project, "--workers", workers],
    report,
    playwrightCounts,
    playwrightNames,
    { E2E_REPORT: report },
  );
}

// The cluster walks (offline merge through the balancer, then failover): three production nodes
// behind HAProxy, started by the config's global setup.
const clusterReport = path.join(out, "e2e-cluster.json");
await suite(
  "end-to-end cluster",
  "npx",
  ["playwright", "test", "-c", "e2e/cluster.config.ts"],
  clusterReport,
  playwrightCounts,
  playwrightNames,
);

console.log("\n=== summary");
for (const line of lines) console.log(line);
for (const name of failures) console.log(`failed or flaky: ${name}`);
console.log(`whole run: ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
