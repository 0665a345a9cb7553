import { readFileSync } from "node:fs";
import { collectDefaultMetrics, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { sampleOf } from "../../test/promText";
import { createRegistry, PREFIX } from "./registry";

const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), "utf8");

/** Every series name a registry exports, a histogram's `_bucket`, `_sum` and `_count` included. */
async function seriesOf(registry: Registry): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

/** Ours: what the registry exports beyond prom-client's default metrics. */
async function ownSeries(): Promise<string[]> {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults, prefix: PREFIX });
  const builtIn = await seriesOf(defaults);
  const all = (await defaults.getMetricsAsJSON()).length;
  expect(all).toBeGreaterThan(10);
  const ours = (await createRegistry().registry.getMetricsAsJSON()).map((m) => m.name);
  return ours.filter((name) => !builtIn.has(name));
}

/** Every `ensemble_…` name in `text`. */
const namesIn = (text: string) => [...text.matchAll(/\bensemble_[a-z0-9_]+/g)].map((m) => m[0]);

/** Every string under an `expr` key, anywhere in the dashboard. */
function exprsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(exprsOf);
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "expr" && typeof value === "string" ? [value] : exprsOf(value),
  );
}

describe("the series a node exports", () => {
  it("builds a registry per app: two in one process do not collide", async () => {
    const first = createRegistry();
    const second = createRegistry();
    first.reporter.tickStored(0.004, 3);
    expect(sampleOf(await first.registry.metrics(), "ensemble_storage_tick_updates_total")).toBe(3);
    expect(sampleOf(await second.registry.metrics(), "ensemble_storage_tick_updates_total")).toBe(0);
  });

  it("reads the app's state at each scrape, and counts what features report", async () => {
    const { registry, reporter, read } = createRegistry();
    const counts = { applied: 7, refused: 2, deferred: 0 };
    read({
      sessionsLoaded: () => 3,
      sessionsOwned: () => 2,
      clients: () => 5,
      updates: () => counts,
      runs: () => ({ queued: 1, running: 4 }),
      assemblingBytes: () => 1024,
    });
    reporter.ran("python", 0.3);
    reporter.runnerFailed("sandbox");
    reporter.leaseMoved("handed_over");
    reporter.tickFailed();
    let text = await registry.metrics();
    expect(sampleOf(text, "ensemble_sessions_loaded")).toBe(3);
    expect(sampleOf(text, "ensemble_sessions_owned")).toBe(2);
    expect(sampleOf(text, "ensemble_clients")).toBe(5);
    expect(sampleOf(text, "ensemble_sync_assembling_bytes")).toBe(1024);
    expect(sampleOf(text, "ensemble_updates_total", { outcome: "applied" })).toBe(7);
    expect(sampleOf(text, "ensemble_updates_total", { outcome: "refused" })).toBe(2);
    expect(sampleOf(text, "ensemble_updates_total", { outcome: "deferred" })).toBe(0);
    expect(sampleOf(text, "ensemble_run_queue_length")).toBe(1);
    expect(sampleOf(text, "ensemble_runs_running")).toBe(4);
    expect(sampleOf(text, "ensemble_run_duration_seconds_count", { language: "python" })).toBe(1);
    expect(sampleOf(text, "ensemble_run_duration_seconds_bucket", { language: "python", le: "0.25" })).toBe(
      0,
    );
    expect(sampleOf(text, "ensemble_run_duration_seconds_bucket", { language: "python", le: "0.5" })).toBe(1);
    expect(sampleOf(text, "ensemble_sandbox_failures_total", { reason: "sandbox" })).toBe(1);
    expect(sampleOf(text, "ensemble_sandbox_failures_total", { reason: "piston" })).toBe(0);
    expect(sampleOf(text, "ensemble_lease_moves_total", { move: "handed_over" })).toBe(1);
    expect(sampleOf(text, "ensemble_lease_moves_total", { move: "lost" })).toBe(0);
    expect(sampleOf(text, "ensemble_storage_tick_failures_total")).toBe(1);
    // The counts move with the rooms' own, never counted twice.
    counts.applied += 2;
    text = await registry.metrics();
    expect(sampleOf(text, "ensemble_updates_total", { outcome: "applied" })).toBe(9);
    expect(sampleOf(text, "ensemble_nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(text).toContain("# TYPE ensemble_nodejs_gc_duration_seconds histogram");
  });

  it("names in the Grafana dashboard only series a node exports", async () => {
    const dashboard: unknown = JSON.parse(read("docs/grafana/ensemble.json"));
    const exprs = exprsOf(dashboard);
    expect(exprs.length).toBeGreaterThanOrEqual(12);
    const exported = await seriesOf(createRegistry().registry);
    for (const expr of exprs) {
      const names = namesIn(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      expect(
        names.filter((name) => !exported.has(name)),
        expr,
      ).toEqual([]);
    }
    // Every series of ours is on a panel.
    const shown = new Set(exprs.flatMap(namesIn).map((name) => name.replace(/_(bucket|sum|count)$/, "")));
    expect((await ownSeries()).filter((name) => !shown.has(name))).toEqual([]);
  });

  it("lists in docs/operations.md every series of ours, and names none a node lacks", async () => {
    const doc = read("docs/operations.md");
    const section = doc.slice(doc.indexOf("## Metrics"), doc.indexOf("\n## ", doc.indexOf("## Metrics") + 1));
    const named = new Set(namesIn(section));
    expect((await ownSeries()).filter((name) => !named.has(name))).toEqual([]);
    const exported = await seriesOf(createRegistry().registry);
    // `ensemble_nodejs_eventloop_lag_…` and kin stand for a family; the rest are whole names.
    const whole = [...named].filter((name) => !name.endsWith("_"));
    expect(whole.filter((name) => !exported.has(name))).toEqual([]);
  });
});
