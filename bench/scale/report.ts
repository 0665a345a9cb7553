import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { StepResult } from "../collab/loadRun";
import type { machineInfo } from "../collab/report";
import type { ProbeReply } from "../collab/serverProbe";
import type { UpdateTally } from "../collab/updateCheck";
import { table } from "../lib/markdown";
import type { ProcessMemory } from "../lib/processes";
import type { Summary } from "../lib/stats";
import type { HeapSummary } from "./heapSummary";

/** The server's state at one moment: memory after a forced GC, its connections, its rooms. */
export interface Moment {
  heapUsedMb: number;
  /** Off the JS heap: ArrayBuffers and C++ objects bound to JS ones. */
  externalMb: number;
  /** The Node process's RSS plus its descendants' (the embedded PostgreSQL's). */
  rssMb: number;
  pssMb: number;
  processes: ProcessMemory[];
  tcpSockets: number;
  /** File descriptors the Node process holds open. */
  fds: number;
  liveSessions: number;
}

export interface ScaleResults {
  date: string;
  commit: string;
  machine: ReturnType<typeof machineInfo>;
  limits: {
    openFilesSoft: number;
    openFilesHard: number;
    ephemeralPorts: number;
    heapLimitMb: number;
    memoryMb: number;
  };
  config: {
    sessions: number;
    clientsPerSession: number;
    clients: number;
    typingPercent: number;
    loadgens: number;
    batch: number;
    idleMs: number;
    warmupMs: number;
    dwellMs: number;
  };
  connect: { ms: number; batchMs: Summary; failed: number; updates: UpdateTally };
  before: Moment;
  idle: Moment;
  /**
   * The same measures after the idle window, at least REST_AFTER_S after the last seed text:
   * past the server's idle compaction (10 s of quiet), when its documents rest. Missing in
   * results from before it was measured.
   */
  rested?: Moment;
  /** The server for 10 s before anyone connected: its own background work. */
  atRest: ServerWindow;
  idleWindow: ServerWindow;
  typing: StepResult;
  after: Moment;
  /** How long each heap snapshot held the server (in a pass of its own). */
  snapshotMs?: number[];
  heap?: HeapSummary;
}

/** The server over a window of time: event-loop delay, GC pauses, CPU, an HTTP round trip. */
export type ServerWindow = Pick<ProbeReply, "loopDelay" | "gc"> & { cpuPercent: number; ping: Summary };

/** Where the hand-written findings start and the generated part begins. */
const FINDINGS = "## Findings";
const GENERATED = "## The run";

/** Sockets a client holds on the server: its socket.io connection and its Yjs lane. */
const SOCKETS_PER_CLIENT = 2;
/** What the extrapolation leaves to the system and the page cache on a 24 GiB machine. */
const RESERVED_MB = 2048;
const MACHINE_MB = 24 * 1024;
/** The busiest a core is planned to be: past it the edit latency's tail grows fast. */
const CPU_BUDGET_PERCENT = 70;

const f = (value: number, digits = 1) =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";
const whole = (value: number) => f(Math.floor(value), 0);

/** JS heap per client once the documents rested (0 when it was not measured). */
function restedHeapKb(r: ScaleResults): number {
  return r.rested ? ((r.rested.heapUsedMb - r.before.heapUsedMb) * 1024) / r.config.clients : 0;
}

/** Per client, per session and the machine's bounds, derived from a run. */
export function derive(r: ScaleResults) {
  const { clients, sessions } = r.config;
  const kb = (mb: number) => mb * 1024;
  const perClient = {
    heapKb: kb(r.idle.heapUsedMb - r.before.heapUsedMb) / clients,
    externalKb: kb(r.idle.externalMb - r.before.externalMb) / clients,
    rssKb: kb(r.idle.rssMb - r.before.rssMb) / clients,
    pssKb: kb(r.idle.pssMb - r.before.pssMb) / clients,
    fds: (r.idle.fds - r.before.fds) / clients,
    /** The Node process alone (the first of the tree). */
    nodeRssKb: kb((r.idle.processes[0]?.rssMb ?? 0) - (r.before.processes[0]?.rssMb ?? 0)) / clients,
  };
  // CPU in % of a core: the server at rest, plus each idle session, plus each typing one.
  const cpu = {
    atRest: r.atRest.cpuPercent,
    idlePerSession: (r.idleWindow.cpuPercent - r.atRest.cpuPercent) / sessions,
    perTypingSession: (r.typing.serverCpuPercent - r.idleWindow.cpuPercent) / r.typing.sessions,
  };
  // RSS moves by tens of kB a client between runs of one build (the allocator keeps what earlier
  // phases freed, and can even give back more than the clients took): never below what the
  // heap and the buffers measurably hold.
  const memoryKb = Math.max(perClient.rssKb, perClient.heapKb + perClient.externalKb);
  const cpuPerSession = cpu.idlePerSession + (r.config.typingPercent / 100) * cpu.perTypingSession;
  const bounds = {
    /** The whole machine's memory, by the process tree's RSS (PSS gives a little more). */
    memory: (MACHINE_MB - RESERVED_MB - r.before.rssMb) / (memoryKb / 1024),
    /** One process's V8 heap limit (Node's default on this machine). */
    heap: (r.limits.heapLimitMb - r.before.heapUsedMb) / (perClient.heapKb / 1024),
    /** One process's open files (the hard limit; Node raises its soft one to it). */
    files: (r.limits.openFilesHard - r.before.fds) / Math.max(perClient.fds, SOCKETS_PER_CLIENT),
    /** One process's event loop, at CPU_BUDGET_PERCENT of a core with this typing share. */
    cpu: ((CPU_BUDGET_PERCENT - cpu.atRest) / cpuPerSession) * r.config.clientsPerSession,
    /** This harness only: the load generators' connections from one loopback address. */
    ports: r.limits.ephemeralPorts / SOCKETS_PER_CLIENT,
  };
  const at6000 = r.before.rssMb + (6000 * memoryKb) / 1024;
  return { perClient, memoryKb, cpu, cpuPerSession, bounds, at6000 };
}

function memoryTable(r: ScaleResults): string {
  const rows = [
    ["JS heap after GC (MB)", r.before.heapUsedMb, r.idle.heapUsedMb, r.after.heapUsedMb],
    ...(r.rested
      ? [
          [
            "JS heap after GC, at rest (MB)",
            r.before.heapUsedMb,
            r.rested.heapUsedMb,
            r.after.heapUsedMb,
          ] as const,
        ]
      : []),
    ["external: buffers and native objects (MB)", r.before.externalMb, r.idle.externalMb, r.after.externalMb],
    ["RSS, every server process (MB)", r.before.rssMb, r.idle.rssMb, r.after.rssMb],
    ["PSS, every server process (MB)", r.before.pssMb, r.idle.pssMb, r.after.pssMb],
    ["TCP connections of the Node process", r.before.tcpSockets, r.idle.tcpSockets, r.after.tcpSockets],
    ["open files of the Node process", r.before.fds, r.idle.fds, r.after.fds],
    ["sessions loaded (`/api/health`)", r.before.liveSessions, r.idle.liveSessions, r.after.liveSessions],
  ] as const;
  return table(
    ["", "before connecting", `${r.config.clients} clients idle`, "after the typing step"],
    rows.map(([label, ...values]) => [label, ...values.map((v) => f(v, Number.isInteger(v) ? 0 : 1))]),
  );
}

/** The process's kind: its command line without the snapshot's temporary path. */
const kindOf = (command: string) =>
  command.replace(/\/tmp\/ensemble-bench-[^/]+\//g, "").split("\n")[0] ?? "";

function processTable(r: ScaleResults): string {
  const moments = [r.before, r.idle, r.after];
  // PostgreSQL's backends come and go with the pool: one row per kind of process.
  const kinds = [...new Set(moments.flatMap((m) => m.processes.map((p) => kindOf(p.command))))];
  return table(
    ["process (how many)", "RSS before / idle / after (MB)", "PSS before / idle / after (MB)"],
    kinds.map((kind) => {
      const each = moments.map((m) => m.processes.filter((p) => kindOf(p.command) === kind));
      const count = each.map((list) => list.length).join(" / ");
      const col = (pick: (p: ProcessMemory) => number) =>
        each.map((list) => f(list.reduce((sum, p) => sum + pick(p), 0))).join(" / ");
      return [`\`${kind.replaceAll("|", "\\|")}\` (${count})`, col((p) => p.rssMb), col((p) => p.pssMb)];
    }),
  );
}

function heapTables(heap: HeapSummary): string {
  const rows = (list: HeapSummary["byOwner"]) =>
    list.map((row) => [row.label, f(row.countPerClient, 2), f(row.bytesPerClient / 1024, 2)]);
  return [
    `Two heap snapshots of the server (before connecting: ${f(heap.beforeMb)} MB; idle: ${f(heap.afterMb)} MB ` +
      `of reachable objects), compared per client (${heap.clients} clients).`,
    "",
    "**By owner**: each object charged to its nearest dominator among the owners listed in " +
      "`heapSummary.ts` (what alone keeps it alive), so a row is what closing that object would free; " +
      "an object no such owner holds is named by its nearest dominator with a telling constructor. " +
      "Compiled code and shapes are made once per code path, so their share falls as clients are added. " +
      "The 24 largest rows:",
    "",
    table(["owner", "owners per client", "kB per client"], rows(heap.byOwner)),
    "",
    "**By constructor** (self size; the 30 largest):",
    "",
    table(["constructor", "objects per client", "kB per client"], rows(heap.byConstructor)),
  ].join("\n");
}

function typingTable(t: StepResult): string {
  const ms = (s: Summary) => `${f(s.p50, 2)} / ${f(s.p99, 2)} / ${f(s.max, 0)}`;
  const u = t.updates;
  return table(
    ["metric", "value"],
    [
      ["sessions typing", String(t.sessions)],
      ["keystrokes in the dwell", String(t.keystrokes)],
      ["characters per second per typist", f(t.charsPerSecondPerTypist, 2)],
      ["edit latency p50 / p99 / max (ms)", ms(t.service)],
      ["from the timetable p50 / p99 / max (ms)", ms(t.intended)],
      ["lost / diverged / disconnects", `${t.lost} / ${t.diverged} / ${t.disconnects}`],
      [
        "updates sent / applied / refused / deferred",
        `${u.sent} / ${u.applied} / ${u.refused} / ${u.deferred ?? 0}${u.isAccepted ? "" : " **(mismatch)**"}`,
      ],
      ["server CPU (% of a core)", f(t.serverCpuPercent)],
      ["server CPU per keystroke (µs)", f(t.cpuUsPerKeystroke, 0)],
      ["server event-loop delay p99 (ms)", f(t.serverLoopDelayP99, 2)],
      ["HTTP round trip p50 / p99 (ms)", `${f(t.ping.p50, 2)} / ${f(t.ping.p99, 2)}`],
      ["load generators' CPU (% of a core each)", t.loadgenCpuPercent.join(", ")],
      ["other processes' CPU (% of a core)", f(t.backgroundCpuPercent)],
    ],
  );
}

/** Writes RESULTS.md from one run, keeping its hand-written findings. */
export function writeReport(file: string, r: ScaleResults): void {
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const [start, end] = [previous.indexOf(FINDINGS), previous.indexOf(GENERATED)];
  const findings = start >= 0 && end > start ? previous.slice(start, end).trimEnd() : "";
  const d = derive(r);
  const { config: c, idleWindow: w, connect } = r;
  const expectedSockets = c.clients * SOCKETS_PER_CLIENT;
  const b = d.bounds;
  const perProcess = Math.min(b.heap, b.files, b.cpu);
  const first = [
    ["the V8 heap limit of one process", b.heap],
    ["open files of one process", b.files],
    [`one process's event loop at ${CPU_BUDGET_PERCENT} % of a core`, b.cpu],
  ].sort((x, y) => (x[1] as number) - (y[1] as number))[0] as [string, number];
  const text = [
    "# Idle scale test: results",
    "",
    `Run ${r.date}, our server at \`${r.commit}\`. Generated by \`run.ts\`; raw data in ` +
      `\`results${c.sessions === 2000 ? "" : `-${c.sessions}`}.json\`. ${r.machine.nproc} cores (${r.machine.cpu}), Node ${r.machine.node}.`,
    "",
    ...(findings ? [findings, ""] : []),
    GENERATED,
    "",
    `${c.sessions} sessions × ${c.clientsPerSession} clients = ${c.clients} clients on one server process ` +
      `(production bundle, embedded PostgreSQL), each client a socket.io connection and a Yjs lane, ` +
      `from ${c.loadgens} load-generator processes, ${c.batch} sessions at a time. Connecting took ` +
      `${f(connect.ms / 1000)} s (a batch p50 ${f(connect.batchMs.p50, 0)} ms, p99 ${f(connect.batchMs.p99, 0)} ms); ` +
      `**${connect.failed} sessions failed** to sync within 60 s. The server then held ${r.idle.tcpSockets} TCP ` +
      `connections: ${SOCKETS_PER_CLIENT} a client would be ${expectedSockets} (any more are keep-alive HTTP connections of the bench's own requests). ` +
      `The seed texts: ${connect.updates.sent} updates sent, ${connect.updates.applied} applied, ${connect.updates.refused} refused.`,
    "",
    "## Memory",
    "",
    memoryTable(r),
    "",
    `Per idle client: **heap ${f(d.perClient.heapKb)} kB** (and ${f(d.perClient.externalKb)} kB external), RSS ${f(d.perClient.rssKb)} kB (the Node process alone ${f(d.perClient.nodeRssKb)} kB), PSS ${f(d.perClient.pssKb)} kB, ` +
      `${f(d.perClient.fds, 2)} open files. Per session of ${c.clientsPerSession}: heap ${f(d.perClient.heapKb * c.clientsPerSession)} kB, ` +
      `RSS ${f(d.perClient.rssKb * c.clientsPerSession)} kB, PSS ${f(d.perClient.pssKb * c.clientsPerSession)} kB. ` +
      "RSS and PSS move by tens of kB a session between runs (the allocator keeps what earlier phases freed); the heap is the steady figure." +
      (r.rested
        ? ` At rest (after the idle window, past the server's 10 s idle compaction): heap ${f(restedHeapKb(r))} kB a client, ${f(restedHeapKb(r) * c.clientsPerSession)} kB a session.`
        : ""),
    "",
    "Every server process (the Node process first, then the embedded PostgreSQL's):",
    "",
    processTable(r),
    "",
    `## Idle (${c.idleMs / 1000} s, every client connected, nobody typing)`,
    "",
    "Idle is not silent: each client renews its awareness every 15 s (relayed to the other two) and engine.io pings every 25 s.",
    "",
    table(
      ["metric", "value"],
      [
        [
          "server CPU (% of a core; at rest before connecting)",
          `${f(w.cpuPercent)} (${f(r.atRest.cpuPercent)})`,
        ],
        [
          "event-loop delay p50 / p99 / max (ms, above the 10 ms sampling interval)",
          `${f(w.loopDelay.p50, 2)} / ${f(w.loopDelay.p99, 2)} / ${f(w.loopDelay.max, 1)}`,
        ],
        ["GC pauses: count / total / longest (ms)", `${w.gc.count} / ${f(w.gc.totalMs)} / ${f(w.gc.maxMs)}`],
        ["HTTP round trip p50 / p99 (ms)", `${f(w.ping.p50, 2)} / ${f(w.ping.p99, 2)}`],
      ],
    ),
    "",
    `## ${c.typingPercent} % of the sessions typing (${c.warmupMs / 1000} s warm-up, ${c.dwellMs / 1000} s measured)`,
    "",
    typingTable(r.typing),
    "",
    "## What an idle client holds",
    "",
    r.heap
      ? heapTables(r.heap)
      : "No heap snapshot in this run (`BENCH_HEAP_SNAPSHOT=1` takes them; by default only up to 500 sessions).",
    "",
    "## Extrapolated to one 24 GiB machine",
    "",
    `From the figures above, linearly (the per-client cost measured between 0 and ${c.clients} clients):`,
    "",
    table(
      ["bound", "clients", "reasoning"],
      [
        [
          "memory of the machine",
          whole(b.memory),
          `(24 GiB − ${RESERVED_MB} MB for the system − ${f(r.before.rssMb, 0)} MB of server processes at rest) ÷ ${f(d.memoryKb)} kB a client (${d.memoryKb === d.perClient.rssKb ? "RSS" : "heap and external: this run's RSS a client was lower, inside its noise"})`,
        ],
        [
          "V8 heap of one process",
          whole(b.heap),
          `(${f(r.limits.heapLimitMb, 0)} MB limit − ${f(r.before.heapUsedMb, 0)} MB at rest) ÷ ${f(d.perClient.heapKb)} kB a client; \`--max-old-space-size\` raises it`,
        ],
        [
          "open files of one process",
          whole(b.files),
          `(${r.limits.openFilesHard} hard limit − ${r.before.fds} at rest) ÷ ${SOCKETS_PER_CLIENT} sockets a client; \`LimitNOFILE\` raises it`,
        ],
        [
          `one event loop, ${c.typingPercent} % typing`,
          whole(b.cpu),
          `${f(d.cpu.atRest, 1)} % of a core at rest, then ${f(d.cpu.idlePerSession, 4)} % an idle session and ${f(d.cpu.perTypingSession, 3)} % a typing one: ` +
            `${f(d.cpuPerSession, 4)} % a session with ${c.typingPercent} % typing, up to ${CPU_BUDGET_PERCENT} % of a core`,
        ],
        [
          "ephemeral ports (this harness only)",
          whole(b.ports),
          `${r.limits.ephemeralPorts} ports from one loopback address to one server port; browsers come from many addresses`,
        ],
      ],
    ),
    "",
    `One process breaks first on **${first[0]}**, at about ${whole(perProcess)} clients. ` +
      `The machine's memory would hold ${whole(b.memory)} clients, so a 24 GiB machine serves its clients ` +
      `with one process per core (cluster mode, each process ${whole(perProcess)} clients at most) until ` +
      `min(cores × ${whole(perProcess)}, ${whole(b.memory)}). ` +
      `At 6,000 idle clients the server processes would hold ${f(d.at6000, 0)} MB RSS ` +
      `(target ≤ 1,024 MB: **${d.at6000 <= 1024 ? "met" : "not met"}**` +
      `${c.clients === 6000 ? ", measured" : ", extrapolated from this run"}).`,
    "",
    "## Run it",
    "",
    "```sh",
    "npm run bench:scale -w bench                       # 2,000 sessions × 3 clients (the issue's test)",
    "BENCH_SESSIONS=200 npm run bench:scale -w bench    # a reduced run while others use the machine",
    "```",
    "",
  ].join("\n");
  writeFileSync(file, text);
}
