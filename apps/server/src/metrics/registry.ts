import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { LeaseMove, LeaseObserver } from "../cluster/index";
import type { StorageObserver } from "../features/collab/index";
import type { RunnerFailure, RunObserver } from "../features/execution/index";

/** The prefix of every series a node exports, ours and prom-client's process and Node.js ones. */
export const PREFIX = "ensemble_";

/** The app's state, read at each scrape rather than counted a second time. */
export interface MetricSources {
  sessionsLoaded(): number;
  sessionsOwned(): number;
  clients(): number;
  updates(): { applied: number; refused: number; deferred: number };
  runs(): { queued: number; running: number };
  /** Bytes being joined from the parts of large sync messages. */
  assemblingBytes(): number;
}

/** What features report as it happens; each feature declares its part in its own terms. */
export type MetricsReporter = StorageObserver & RunObserver & LeaseObserver;

const UPDATE_OUTCOMES = ["applied", "refused", "deferred"] as const;
const RUNNER_FAILURES: readonly RunnerFailure[] = ["sandbox", "piston", "unavailable"];
const LEASE_MOVES: readonly LeaseMove[] = ["handed_over", "taken", "lost"];

/**
 * One registry per app (tests build several apps in one process, and prom-client's global
 * registry would refuse the second's metrics), with Node's default metrics (event-loop delay,
 * GC, memory, CPU) and ours. `read` is called once the features exist; until then the gauges
 * read 0.
 */
export function createRegistry() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  let sources: MetricSources | undefined;
  /** A gauge that reads the app's state at each scrape (0 until `read` gave it its sources). */
  const gauge = (name: string, help: string, value: (from: MetricSources) => number) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers,
      collect() {
        this.set(sources ? value(sources) : 0);
      },
    });

  gauge("sessions_loaded", "Sessions whose document is loaded in this process.", (from) =>
    from.sessionsLoaded(),
  );
  gauge(
    "sessions_owned",
    "Sessions whose lease this node holds (in one process: every loaded session).",
    (from) => from.sessionsOwned(),
  );
  gauge("clients", "Editor sockets (socket.io) connected to this process.", (from) => from.clients());
  gauge(
    "sync_assembling_bytes",
    "Bytes held for large sync messages arriving in parts (bounded: a new one past the bound is asked for again later).",
    (from) => from.assemblingBytes(),
  );
  new Counter({
    name: `${PREFIX}updates_total`,
    help: "Client document updates by outcome: applied, refused (invalid, forbidden, too large) or deferred (built on content the server lacked, or over a rate or memory bound for now; resent).",
    labelNames: ["outcome"],
    registers,
    collect() {
      // The rooms' own counters are the truth: the counter is set to them, not counted again.
      const counts = sources?.updates();
      this.reset();
      for (const outcome of UPDATE_OUTCOMES) this.inc({ outcome }, counts?.[outcome] ?? 0);
    },
  });
  const storageTicks = new Histogram({
    name: `${PREFIX}storage_tick_seconds`,
    help: "How long one tick's INSERT of the document updates gathered in it (up to 50 ms of them) took.",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const storageTickUpdates = new Counter({
    name: `${PREFIX}storage_tick_updates_total`,
    help: "Document updates stored by the ticks.",
    registers,
  });
  const storageFailures = new Counter({
    name: `${PREFIX}storage_tick_failures_total`,
    help: "Ticks whose INSERT failed (their updates are retried a second later).",
    registers,
  });
  gauge(
    "run_queue_length",
    "Runs waiting for a free slot (RUN_QUEUE_MAX at most).",
    (from) => from.runs().queued,
  );
  gauge("runs_running", "Runs in a slot now (RUN_CONCURRENCY at most).", (from) => from.runs().running);
  const runDuration = new Histogram({
    name: `${PREFIX}run_duration_seconds`,
    help: "Time a finished run held its slot (compile and run, or a live run's whole life), by language.",
    labelNames: ["language"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const runnerFailures = new Counter({
    name: `${PREFIX}sandbox_failures_total`,
    help: "Runs that failed for the runner, not the program: the sandbox did not start (sandbox), the Piston server failed (piston), or the sandbox is unavailable on this server (unavailable).",
    labelNames: ["reason"],
    registers,
  });
  const leaseMoves = new Counter({
    name: `${PREFIX}lease_moves_total`,
    help: "Session leases that moved in a cluster: handed over by this node (handed_over), taken from another (taken), or taken by another while held here (lost).",
    labelNames: ["move"],
    registers,
  });
  // Every known label at 0, so rate() sees a series from the first scrape.
  for (const reason of RUNNER_FAILURES) runnerFailures.inc({ reason }, 0);
  for (const move of LEASE_MOVES) leaseMoves.inc({ move }, 0);

  const reporter: MetricsReporter = {
    tickStored(seconds, updates) {
      storageTicks.observe(seconds);
      storageTickUpdates.inc(updates);
    },
    tickFailed: () => storageFailures.inc(),
    ran: (language, seconds) => runDuration.observe({ language }, seconds),
    runnerFailed: (reason) => runnerFailures.inc({ reason }),
    leaseMoved: (move) => leaseMoves.inc({ move }),
  };
  return {
    registry,
    reporter,
    read(from: MetricSources) {
      sources = from;
    },
  };
}
