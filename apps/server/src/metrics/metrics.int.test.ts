import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorPool, waitFor } from "../../test/collabClient";
import { buildUser, startTestServer, type TestServer } from "../../test/harness";
import { sampleOf } from "../../test/promText";

const TOKEN = "metrics-token-for-the-test-0123456789abcdef";
const newRoot = () => `f-${Math.random().toString(36).slice(2, 10).padEnd(16, "x")}`;

// Metrics do not depend on the database: one home keeps the suite fast on two cores.
describe("Prometheus metrics at /metrics", () => {
  let server: TestServer;
  const editors = editorPool(() => server.url);
  const scrape = async (token = TOKEN) => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** One sample of a fresh scrape (0 when the series has no such line yet). */
  const sample = async (name: string, labels?: Record<string, string>) =>
    sampleOf(await scrape(), name, labels) ?? 0;

  beforeAll(async () => {
    server = await startTestServer("embedded", { METRICS_TOKEN: TOKEN, RUN_RATE_MAX: "1000" });
  });
  afterAll(async () => {
    await editors.closeAll();
    await server.close();
  });

  it("answers 401 without the bearer token or with another, and never shows a series then", async () => {
    const asked: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of asked) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ code: "unauthenticated" });
      expect(body).not.toContain("ensemble_");
    }
    const right = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("moves sessions, clients, applied and refused updates and storage ticks as a session is edited", async () => {
    const before = await scrape();
    expect(sampleOf(before, "ensemble_sessions_loaded")).toBe(0);
    expect(sampleOf(before, "ensemble_clients")).toBe(0);
    const applied = sampleOf(before, "ensemble_updates_total", { outcome: "applied" }) ?? 0;
    const refused = sampleOf(before, "ensemble_updates_total", { outcome: "refused" }) ?? 0;
    const ticks = sampleOf(before, "ensemble_storage_tick_seconds_count") ?? 0;
    const stored = sampleOf(before, "ensemble_storage_tick_updates_total") ?? 0;

    const { host, guest } = await editors.hostAndGuest(server.api, "metrics");
    const during = await scrape();
    expect(sampleOf(during, "ensemble_sessions_loaded")).toBe(1);
    expect(sampleOf(during, "ensemble_sessions_owned")).toBe(1);
    expect(sampleOf(during, "ensemble_clients")).toBe(2);

    for (const word of ["one ", "two ", "three "]) host.file().insert(0, word);
    await waitFor(() => guest.text().startsWith("three two one "), 5000, "the guest to see the edits");
    // /api/health's counts and the series are one truth.
    expect(await sample("ensemble_updates_total", { outcome: "applied" })).toBe(
      server.app.collab.rooms.counts.applied,
    );
    expect(await sample("ensemble_updates_total", { outcome: "applied" })).toBeGreaterThanOrEqual(
      applied + 3,
    );
    // Stored within the tick after them.
    await waitFor(
      async () => (await sample("ensemble_storage_tick_updates_total")) >= stored + 3,
      5000,
      "the ticks to store the edits",
    );
    expect(await sample("ensemble_storage_tick_seconds_count")).toBeGreaterThan(ticks);

    // Text in a root no create named: the whole update is refused.
    guest.doc.getText(newRoot()).insert(0, "smuggled");
    await waitFor(() => (guest.received.get("socketError") ?? []).length > 0, 5000, "the refusal");
    expect(await sample("ensemble_updates_total", { outcome: "refused" })).toBe(refused + 1);

    await host.close();
    await guest.close();
    await waitFor(
      async () => {
        const after = await scrape();
        return sampleOf(after, "ensemble_clients") === 0 && sampleOf(after, "ensemble_sessions_loaded") === 0;
      },
      5000,
      "the session to unload",
    );
  });

  it("times each finished run by its language", async () => {
    const user = await buildUser(server.api);
    const runs = () => sample("ensemble_run_duration_seconds_count", { language: "javascript" });
    const before = await runs();
    const res = await server.api.post(
      "/api/v2/execute",
      { language: "javascript", version: "*", files: [{ content: "console.log(6 * 7)" }] },
      user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run: { stdout: "42\n" } });
    expect(await runs()).toBe(before + 1);
    const text = await scrape();
    expect(sampleOf(text, "ensemble_run_duration_seconds_sum", { language: "javascript" })).toBeGreaterThan(
      0,
    );
    expect(sampleOf(text, "ensemble_run_queue_length")).toBe(0);
    expect(sampleOf(text, "ensemble_runs_running")).toBe(0);
    expect(sampleOf(text, "ensemble_sandbox_failures_total", { reason: "sandbox" })).toBe(0);
  });

  /**
   * Starts another app on the same database with `env`, asks it for one JavaScript run (which
   * must answer `status`), and hands `check` that app and its scrape; the app is closed after.
   */
  async function runOnAnotherApp(
    env: Record<string, string>,
    status: number,
    check: (other: TestServer, scraped: string) => Promise<void> | void,
  ) {
    const other = await startTestServer("embedded", env, { db: server.db });
    try {
      const user = await buildUser(other.api);
      const res = await other.api.post(
        "/api/v2/execute",
        { language: "javascript", version: "*", files: [{ content: "1" }] },
        user.token,
      );
      expect(res.status).toBe(status);
      const scraped = await fetch(`${other.url}/metrics`, {
        headers: { authorization: `Bearer ${env.METRICS_TOKEN}` },
      });
      await check(other, await scraped.text());
    } finally {
      await other.close();
    }
  }

  it("keeps a second app's metrics of its own, and counts runs refused for a missing sandbox", async () => {
    await runOnAnotherApp(
      { METRICS_TOKEN: `${TOKEN}-other`, BWRAP_PATH: "/nonexistent/bwrap" },
      503,
      async (other, text) => {
        expect(sampleOf(text, "ensemble_sandbox_failures_total", { reason: "unavailable" })).toBe(1);
        expect(await sample("ensemble_sandbox_failures_total", { reason: "unavailable" })).toBe(0);
        // Each app answers to its own token only.
        expect(
          (await fetch(`${other.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
        ).toBe(401);
      },
    );
  });

  it("counts a run the Piston server of PISTON_URL failed", async () => {
    // Nothing listens on the discard port: the Piston server is unreachable.
    await runOnAnotherApp({ METRICS_TOKEN: TOKEN, PISTON_URL: "http://127.0.0.1:9" }, 502, (_other, text) => {
      expect(sampleOf(text, "ensemble_sandbox_failures_total", { reason: "piston" })).toBe(1);
      expect(
        sampleOf(text, "ensemble_run_duration_seconds_count", { language: "javascript" }),
      ).toBeUndefined();
    });
  });

  it("is a 404 when METRICS_TOKEN is unset", async () => {
    const off = await startTestServer("embedded", {}, { db: server.db });
    try {
      const asked: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
      for (const headers of asked) {
        const res = await fetch(`${off.url}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain("ensemble_");
      }
    } finally {
      await off.close();
    }
  });
});
