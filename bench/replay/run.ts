import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Ack, type ReplayFrame, ReplayFrameSchema, ReplayTimelineSchema } from "@ensemble/protocol";
import * as Y from "yjs";
import { BenchClient, createSession } from "../coldload/client";
import { buildServer, type RunningServer, startServer } from "../coldload/server";
import { seededRandom } from "../collab/random";
import { median, summarize } from "../lib/stats";
import { sleep } from "../lib/wait";

/**
 * Replay of a 2-hour session of three typists on our production server: three clients type
 * `BENCH_KEYSTROKES` single-character edits (default 72,000: three people at 200 keystrokes a
 * minute each for two hours, 30 % of them backspaces) into one file, each keystroke its own
 * update as the editor sends it, at bench speed (the same rows a 2-hour session stores, in a few
 * minutes). Then a fourth participant opens the replay (`getReplayTimeline`: the first one walks
 * the history and stores its checkpoints) and seeks `BENCH_SEEKS` random moments (`seekReplay`,
 * the socket round trip: what the slider waits for). With `BENCH_DATABASE_URL` (a PostgreSQL
 * server the bench may create a database on) it runs there and reads the history's storage from
 * the catalogue; otherwise on the embedded database, seeks only.
 */
const keystrokes = Number(process.env.BENCH_KEYSTROKES ?? 72_000);
const seeks = Number(process.env.BENCH_SEEKS ?? 60);
/** First openings measured, each on a server started afresh (medians are reported: the machine is shared). */
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 4340);
const adminUrl = process.env.BENCH_DATABASE_URL || undefined;
const TYPISTS = 3;
/**
 * Per typist, keystrokes per 20 ms tick: 150 a second at most, under the server's stream meter
 * (200 a second per connection), so nothing is dropped; a late tick never catches up in a burst.
 */
const KEYS_PER_TICK = 3;
const TICK_MS = 20;
/** The UI's gap between seeks, and under the `command` rate class (5 a second). */
const SEEK_GAP_MS = 250;

/** One typist's keystroke: mostly at their caret (kept as a Yjs relative position), 30 % backspaces. */
function keystroke(client: BenchClient, caret: { at: Y.RelativePosition | null }, random: () => number) {
  const text = client.mainText();
  if (!text) throw new Error("no main file");
  const resolved = caret.at
    ? Y.createAbsolutePositionFromRelativePosition(caret.at, client.doc)?.index
    : undefined;
  let index = resolved ?? text.length;
  if (random() < 0.03) index = Math.floor(random() * (text.length + 1));
  if (random() < 0.3 && index > 0) {
    text.delete(index - 1, 1);
    index -= 1;
  } else {
    text.insert(index, random() < 0.15 ? "\n" : String.fromCharCode(97 + Math.floor(random() * 26)));
    index += 1;
  }
  caret.at = Y.createRelativePositionFromTypeIndex(text, index, -1);
}

async function typeHistory(server: RunningServer, sessionId: string): Promise<string> {
  const typists = Array.from({ length: TYPISTS }, () => new BenchClient(server.url, sessionId));
  await Promise.all(typists.map((t) => t.until((text) => text !== undefined)));
  const perTypist = Math.ceil(keystrokes / TYPISTS);
  const started = performance.now();
  await Promise.all(
    typists.map(async (typist, i) => {
      const random = seededRandom(11 + i);
      const caret = { at: null as Y.RelativePosition | null };
      for (let k = 0; k < perTypist; k++) {
        keystroke(typist, caret, random);
        if ((k + 1) % KEYS_PER_TICK === 0) await sleep(TICK_MS);
      }
    }),
  );
  await Promise.all(typists.map((t) => t.editAccepted()));
  // The server has every keystroke; the typists converge once each has the others' last ones.
  const texts = () => typists.map((t) => t.mainText()?.toString() ?? "");
  for (let i = 0; new Set(texts()).size > 1; i++) {
    if (i > 1200) throw new Error("the typists did not converge in 2 minutes");
    await sleep(100);
  }
  const expected = texts()[0] ?? "";
  await Promise.all(typists.map((t) => t.close()));
  console.log(
    `typed ${perTypist * TYPISTS} keystrokes in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return expected;
}

/** A frame as both layouts answer it (the baseline's has no folders or language yet). */
const FrameSchema = ReplayFrameSchema.partial({ folders: true, language: true });

function parse<T>(ack: Ack<unknown>, schema: { parse(value: unknown): T }): T {
  if (!ack.ok) throw new Error(`${ack.error.code}: ${ack.error.message}`);
  return schema.parse(ack.data);
}

function psql(url: string, sql: string): string {
  return execFileSync("psql", [url, "-Atc", sql], { encoding: "utf8" }).trim();
}

/**
 * A psql connection string of the embedded database under `dataDir`: its Unix socket's folder
 * is a temporary one named on the PostgreSQL command line (`unix_socket_directories`).
 */
function embeddedUrl(dataDir: string): string {
  const lines = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n");
  const line = lines.find((l) => l.includes(`${dataDir}/postgres`) && l.includes("unix_socket_directories="));
  const socketDir = line?.match(/unix_socket_directories=(\S+)/)?.[1];
  if (!socketDir) throw new Error("the embedded PostgreSQL's socket was not found");
  return `postgresql://postgres@/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** Whether the server stores the history in chunks a periodic job makes (issue 31), rather than a row per update. */
const hasChunks = (url: string) => psql(url, "SELECT to_regclass('doc_history_chunks') IS NOT NULL") === "t";

/**
 * Waits until the compaction job has folded every stored update of the history into chunks
 * (none left in doc_history), as it does a few seconds after typing stops; answers how long.
 */
async function untilCompacted(url: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; Number(psql(url, "SELECT count(*) FROM doc_history")) > 0; i++) {
    if (i > 600) throw new Error("the history was not compacted in 5 minutes");
    await sleep(500);
  }
  return Math.round(performance.now() - started);
}

/**
 * Bytes of each history table (table, TOAST and indexes) holding only their live rows: a
 * `VACUUM FULL` first rewrites them, dropping what the bench itself deleted (the baseline's
 * checkpoints between its openings) and the folded rows' emptied pages, which a plain VACUUM
 * leaves in indexes (reused by later rows, but not history).
 */
function historyStorage(url: string) {
  const tables = psql(
    url,
    "SELECT string_agg(relname, ', ') FROM pg_class WHERE relkind = 'r' AND relname LIKE 'doc\\_history%'",
  );
  psql(url, `VACUUM FULL ${tables}`);
  const sizes = psql(
    url,
    `SELECT relname || '=' || pg_total_relation_size(oid) FROM pg_class
     WHERE relkind = 'r' AND relname LIKE 'doc\\_history%' ORDER BY relname`,
  )
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("="));
  const bytes: Record<string, number> = Object.fromEntries(sizes.map(([name, size]) => [name, Number(size)]));
  const total = Object.values(bytes).reduce((a, b) => a + b, 0);
  return { bytes, total, keyframes: Number(psql(url, "SELECT count(*) FROM doc_history_checkpoints")) };
}

/**
 * One opening of the replay on a freshly started server, as the panel opens it: the timeline,
 * the seek to its end (where the slider opens), the timeline again, then `seeks` random moments.
 */
async function openReplay(url: string, sessionId: string, finalText: string) {
  const viewer = new BenchClient(url, sessionId);
  await viewer.until((text) => text?.toString() === finalText);
  let started = performance.now();
  const timeline = parse(await viewer.request("getReplayTimeline", { sessionId }), ReplayTimelineSchema);
  const firstTimelineMs = performance.now() - started;
  if (timeline.start === null || timeline.end === null) throw new Error("no history");
  started = performance.now();
  parse(await viewer.request("seekReplay", { sessionId, at: timeline.end }), FrameSchema);
  const openingSeekMs = performance.now() - started;
  await sleep(SEEK_GAP_MS);
  started = performance.now();
  parse(await viewer.request("getReplayTimeline", { sessionId }), ReplayTimelineSchema);
  const timelineMs = performance.now() - started;

  const random = seededRandom(5);
  const seekMs: number[] = [];
  let last: { files: ReplayFrame["files"] } | undefined;
  for (let i = 0; i < seeks; i++) {
    await sleep(SEEK_GAP_MS);
    // The last seek is the end, whose text must be the session's.
    const at = i === seeks - 1 ? timeline.end : timeline.start + random() * (timeline.end - timeline.start);
    started = performance.now();
    last = parse(await viewer.request("seekReplay", { sessionId, at: Math.round(at) }), FrameSchema);
    seekMs.push(performance.now() - started);
  }
  const shown = last?.files.find((f) => f.path === "src/main.js")?.content;
  if (shown !== finalText) throw new Error("the seek to the end does not show the session's text");
  await viewer.close();
  return { edits: timeline.edits, firstTimelineMs, openingSeekMs, timelineMs, seekMs };
}

/** Measures `repeats` first openings on `bundle`, each on a server started afresh. */
async function measure(
  bundle: string,
  where: { dataDir: string; databaseUrl: string | undefined },
  sessionId: string,
  finalText: string,
  profile: string | undefined,
) {
  const start = () =>
    startServer(bundle, {
      port,
      ...where,
      nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [],
    });
  let server = await start();
  const urlNow = () => where.databaseUrl ?? embeddedUrl(where.dataDir);
  try {
    const chunked = hasChunks(urlNow());
    // The new layout's job folds the rows the old one left (an upgrade does the same).
    const compactionWaitMs = chunked ? await untilCompacted(urlNow()) : 0;
    const storage = historyStorage(urlNow());
    const runs: Awaited<ReturnType<typeof openReplay>>[] = [];
    for (let repeat = 0; repeat < repeats; repeat++) {
      // Each repeat is a first opening: a server started afresh (nothing of the history in its
      // memory) and, for the history of a row per update, without the checkpoints the previous
      // opening stored (the state after a long stretch nobody replayed).
      if (!chunked) psql(urlNow(), "DELETE FROM doc_history_checkpoints");
      await server.stop();
      server = await start();
      runs.push(await openReplay(server.url, sessionId, finalText));
      const run = runs.at(-1);
      console.log(
        `repeat ${repeat + 1}: first timeline ${Math.round(run?.firstTimelineMs ?? 0)} ms, opening seek ${Math.round(run?.openingSeekMs ?? 0)} ms`,
      );
    }
    // The next layout starts from the rows alone, as an upgraded server does.
    if (!chunked) psql(urlNow(), "DELETE FROM doc_history_checkpoints");
    const edits = runs[0]?.edits ?? 0;
    return {
      layout: chunked ? "chunks + keyframes (compaction job)" : "a row per update + checkpoints on walk",
      firstTimelineMs: {
        median: Math.round(median(runs.map((r) => r.firstTimelineMs))),
        each: runs.map((r) => Math.round(r.firstTimelineMs)),
      },
      timelineMs: {
        median: Math.round(median(runs.map((r) => r.timelineMs))),
        each: runs.map((r) => Math.round(r.timelineMs)),
      },
      // The panel's seek to the end right after the timeline: the moment the timeline built.
      openingSeekMs: runs.map((r) => Math.round(r.openingSeekMs)),
      seekMs: {
        all: summarize(runs.flatMap((r) => r.seekMs)),
        medianPerRepeat: runs.map((r) => Math.round(median(r.seekMs) * 10) / 10),
        maxPerRepeat: runs.map((r) => Math.round(Math.max(...r.seekMs))),
        // The first random seek after a server start (its code and the database still cold), and
        // the slowest of the others: which one misses a bound.
        firstPerRepeat: runs.map((r) => Math.round(r.seekMs[0] ?? 0)),
        maxAfterFirstPerRepeat: runs.map((r) => Math.round(Math.max(...r.seekMs.slice(1)))),
      },
      compactionWaitMs,
      storage,
      bytesPerKeystroke: Math.round(storage.total / edits),
      bytesPerHour: Math.round(storage.total / 2),
    };
  } finally {
    await server.stop();
  }
}

/**
 * With `BENCH_BASELINE_REF`, the history is typed on that commit's server and measured there
 * first, then the same data is opened by `BENCH_REF`'s (an upgrade: its migrations run, its
 * jobs fold the rows): both layouts measured on one history, in one run.
 */
async function main() {
  const build = buildServer(process.env.BENCH_REF ?? "HEAD");
  const baselineRef = process.env.BENCH_BASELINE_REF || undefined;
  const baseline = baselineRef ? buildServer(baselineRef) : undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ensemble-replay-bench-"));
  const database = `bench_replay_${process.pid}`;
  const databaseUrl = adminUrl && `${adminUrl.replace(/\/[^/]*$/, "")}/${database}`;
  if (adminUrl) psql(adminUrl, `CREATE DATABASE ${database}`);
  const profileDir = process.env.BENCH_CPU_PROF || undefined;
  const where = { dataDir, databaseUrl };
  try {
    const typing = await startServer((baseline ?? build).bundle, { port, ...where });
    let sessionId: string;
    let finalText: string;
    try {
      sessionId = await createSession(typing.url, "replay");
      finalText = await typeHistory(typing, sessionId);
    } finally {
      await typing.stop();
    }
    const before =
      baseline &&
      (await measure(baseline.bundle, where, sessionId, finalText, profileDir && `${profileDir}/baseline`));
    const after = await measure(build.bundle, where, sessionId, finalText, profileDir && `${profileDir}/new`);
    const results = {
      database: databaseUrl ? "PostgreSQL server" : "embedded PostgreSQL",
      date: new Date().toISOString(),
      machine: `${os.cpus()[0]?.model ?? "?"} × ${os.cpus().length}, shared with other engineers' work (load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} at the end)`,
      keystrokes,
      finalChars: finalText.length,
      repeats,
      baseline: before && { commit: baseline?.commit, ...before },
      current: { commit: build.commit, ...after },
    };
    console.log(JSON.stringify(results, null, 2));
    const file = path.join(import.meta.dirname, `results-${databaseUrl ? "postgres" : "embedded"}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    if (adminUrl) psql(adminUrl, `DROP DATABASE IF EXISTS ${database}`);
    rmSync(dataDir, { recursive: true, force: true });
    build.remove();
    baseline?.remove();
  }
}

await main();
// Socket.io clients and fetch keep-alive sockets can outlive their close: end here.
process.exit(0);
