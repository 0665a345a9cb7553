import { execSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { table } from "../lib/markdown";
import { median } from "../lib/stats";
import { capacityOf, formatCapacity } from "./capacity";
import type { ColdLoadResult } from "./coldLoad";
import { bySystem, f, type Machine, type Results, ratio, stepAt } from "./figures";
import { type LoadResult, REST_AFTER_MS, type StepResult } from "./loadRun";
import { targets } from "./reportTargets";
import { SYSTEM_IDS, type SystemId } from "./systems";
import type { UpdateTally } from "./updateCheck";

/** Where the hand-written findings of RESULTS.md start and end: a run keeps them. */
const FINDINGS_SECTION = "## Findings";
const COMPARISON_SECTION = "## Comparison";
/** Where the hand-written workspace section of RESULTS.md starts (issue 8). */
const WORKSPACE_SECTION = "## Workspace run";

export function machineInfo(): Machine {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown";
  const sh = (command: string) => execSync(command, { encoding: "utf8" }).trim();
  return {
    nproc: sh("nproc"),
    cpu,
    memory: sh("free -g"),
    node: process.version,
    kernel: os.release(),
    dateUtc: sh("date -u"),
  };
}

/** What each system is, for the legend above the tables. */
const DESCRIPTIONS: Record<SystemId, string> = {
  ours: "our production bundle; every update validated and stored in its embedded PostgreSQL within 100 ms",
  hocuspocus: "`@hocuspocus/server`, in memory (stores nothing)",
  "hocuspocus-persisted":
    "Hocuspocus storing each document's state in a file through its Database extension, at its default debounce (2 s, at most 10 s)",
  "hocuspocus-persisted-nodebounce": "the same with `debounce: 0`: the state stored on every change",
  ywebsocket: "`y-websocket` 1.5.4's `bin/server.js`, in memory (stores nothing)",
  "ywebsocket-persisted": "the same with `YPERSISTENCE`: every update stored in LevelDB (`y-leveldb`)",
};

/**
 * Writes RESULTS.md: capacity, ours against each peer at every step, the lowest and highest step
 * in full, memory and cold load, every step, the targets, the machine. The hand-written findings
 * and workspace sections of the file it replaces are kept.
 */
export function writeReport(file: string, results: Results) {
  const { load, cold } = bySystem(results);
  const loaded = SYSTEM_IDS.filter((id) => load(id));
  const sizes = results.load.flatMap((l) => l.steps.map((s) => s.sessions));
  const ramp = [...new Set(sizes)].sort((a, b) => a - b);
  const [low = 0, top = 0] = [ramp[0], ramp.at(-1)];
  // A peer's cell: its figure, then ours / it.
  const cells = (
    systems: SystemId[],
    get: (system: SystemId) => number | undefined,
    digits = 1,
    isCompared = true,
  ) => {
    const ours = isCompared ? (get("ours") ?? Number.NaN) : Number.NaN;
    return systems.map((system) => {
      const value = get(system) ?? Number.NaN;
      return system === "ours" || !Number.isFinite(ours) || !Number.isFinite(value)
        ? f(value, digits)
        : `${f(value, digits)} (${ratio(ours, value)})`;
    });
  };
  // Each system's figure at one step.
  const atStep = (sessions: number, get: (s: StepResult) => number) => (system: SystemId) => {
    const step = stepAt(load(system), sessions);
    return step && get(step);
  };
  const perStep = (get: (s: StepResult) => number, digits: number) =>
    table(
      ["typing sessions", ...loaded],
      ramp.map((sessions) => [String(sessions), ...cells(loaded, atStep(sessions, get), digits)]),
    );
  const stepTable = (sessions: number) => {
    const metric = (label: string, get: (s: StepResult) => number, digits = 1) => [
      label,
      ...cells(loaded, atStep(sessions, get), digits),
    ];
    return [
      `### ${sessions} typing sessions (${sessions * 3} clients: 2 typists + 1 watcher each)`,
      "",
      table(
        ["metric", ...loaded],
        [
          metric("edit latency p50 (ms)", (s) => s.service.p50, 2),
          metric("edit latency p99 (ms)", (s) => s.service.p99, 2),
          metric("edit latency p99, from the timetable (ms)", (s) => s.intended.p99, 2),
          metric("server CPU (% of one core)", (s) => s.serverCpuPercent),
          metric("server CPU per delivered message (µs)", (s) => s.cpuUsPerDelivered),
          metric("server CPU per keystroke (µs)", (s) => s.cpuUsPerKeystroke),
          metric("messages delivered per keystroke", (s) => s.delivered / s.keystrokes, 2),
          metric("server event-loop delay p99 (ms, in-process)", (s) => s.serverLoopDelayP99),
          metric("server GC pauses (% of the time)", (s) => s.serverGc?.percent ?? Number.NaN),
          metric("server's longest GC pause (ms)", (s) => s.serverGc?.maxMs ?? Number.NaN),
          metric("HTTP health ping p99 (ms, from outside)", (s) => s.ping.p99),
          [
            "other processes' CPU during the step (% of a core)",
            ...loaded.map((system) =>
              f(atStep(sessions, (s) => s.backgroundCpuPercent)(system) ?? Number.NaN, 0),
            ),
          ],
          [
            "client updates: sent / applied / refused by the server",
            ...loaded.map((system) =>
              updateCells(stepAt(load(system), sessions)?.updates).replaceAll(" | ", " / "),
            ),
          ],
        ],
      ),
      "",
    ];
  };
  const stored = SYSTEM_IDS.filter((id) => load(id) || cold(id));
  const coldMedian = (system: SystemId, get: (c: ColdLoadResult) => number[]) => {
    const result = cold(system);
    return result && median(get(result));
  };
  const lines = [
    "# Collaboration load benchmark: results",
    "",
    `Run ${results.machine.dateUtc}, our server at commit \`${results.commit}\`. Generated by \`run.ts\`; raw data in \`results.json\`.`,
    "",
    COMPARISON_SECTION,
    "",
    ...acceptance(results.load),
    "",
    "The systems, as `results.json` names them:",
    "",
    ...stored.map((system) => `- \`${system}\`: ${DESCRIPTIONS[system]}.`),
    "",
    "In every comparison table a peer's cell holds its figure and, in brackets, ours / it.",
    "",
    "### Capacity: the typing sessions held at edit p99 ≤ 50 ms",
    "",
    "A step is over when its edit p99 passes 50 ms or it lost or diverged an insert; the capacity is the last step before the first one over (≥ the top step when none was).",
    "",
    table(
      ["system", ...ramp.map((n) => `p99 at ${n} (ms)`), "first step over", "capacity"],
      loaded.map((system) => {
        const result = load(system);
        const capacity = result?.capacity ?? capacityOf(result?.steps ?? []);
        return [
          system,
          ...ramp.map((n) => f(stepAt(result, n)?.service.p99 ?? Number.NaN, 2)),
          capacity.firstStepOver === null ? "none" : String(capacity.firstStepOver),
          formatCapacity(capacity),
        ];
      }),
    ),
    "",
    "### Edit latency p99 at every step (ms)",
    "",
    perStep((s) => s.service.p99, 2),
    "",
    "### Server CPU per keystroke at every step (µs)",
    "",
    perStep((s) => s.cpuUsPerKeystroke, 0),
    "",
    ...stepTable(low),
    ...(top === low ? [] : stepTable(top)),
    `### Memory (${load("ours")?.idle.sessions ?? results.load[0]?.idle.sessions ?? "?"} idle sessions loaded) and cold load`,
    "",
    "Cold load: an in-memory system has nothing to load after a restart, so its storing form is measured.",
    "",
    table(
      ["metric", ...stored],
      [
        ["memory per idle session, RSS (kB)", ...cells(stored, (s) => load(s)?.idle.rssPerSessionKb)],
        [
          "memory per idle session, PSS of the process tree (kB)",
          ...cells(stored, (s) => load(s)?.idle.pssPerSessionKb),
        ],
        ["memory per idle session, JS heap (kB)", ...cells(stored, (s) => load(s)?.idle.heapPerSessionKb)],
        [
          `memory per idle session at rest (${REST_AFTER_MS / 1000} s after connecting), JS heap (kB)`,
          ...cells(stored, (s) => load(s)?.idle.rested?.heapPerSessionKb),
        ],
        [
          "data folder after the last step (MB; ours: its whole database cluster)",
          ...cells(
            stored,
            (s) => {
              const bytes = load(s)?.storedBytes;
              return bytes === undefined ? undefined : bytes / 1024 / 1024;
            },
            1,
            false,
          ),
        ],
        [
          `cold load, ${results.trace.ops}-op history (ms, median)`,
          ...cells(stored, (s) => coldMedian(s, (c) => c.coldMs), 0),
        ],
        [
          "cold load: server CPU (ms, median)",
          ...cells(stored, (s) => coldMedian(s, (c) => c.serverCpuMs), 0),
        ],
        [
          "second client on the loaded doc (ms, median)",
          ...cells(stored, (s) => coldMedian(s, (c) => c.warmMs), 0),
        ],
      ],
    ),
    "",
    "## Every step",
    "",
    "Updates: the clients' Yjs updates from the start of the step's warm-up until its last keystroke was delivered; *applied* and *refused* as the server counted them (ours: `/api/health`; Hocuspocus: its `onChange` hook, which has nothing to refuse here; y-websocket: the probe, through its `yjs`).",
    "",
    table(
      [
        "system",
        "sessions",
        "chars/s per typist",
        "p50 ms",
        "p99 ms",
        "p99 timetable ms",
        "server CPU %",
        "µs/msg",
        "µs/key",
        "loop p99 ms",
        "GC %",
        "GC max ms",
        "ping p99 ms",
        "loadgen CPU %",
        "loadgen loop p99 ms",
        "other processes CPU %",
        "lost",
        "diverged",
        "disconnects",
        "updates sent",
        "applied",
        "refused",
      ],
      results.load.flatMap((l) =>
        l.steps.map((s) => [
          l.label,
          String(s.sessions),
          f(s.charsPerSecondPerTypist, 2),
          f(s.service.p50, 2),
          f(s.service.p99, 2),
          f(s.intended.p99, 2),
          f(s.serverCpuPercent),
          f(s.cpuUsPerDelivered),
          f(s.cpuUsPerKeystroke),
          f(s.serverLoopDelayP99),
          f(s.serverGc?.percent ?? Number.NaN),
          f(s.serverGc?.maxMs ?? Number.NaN),
          f(s.ping.p99),
          s.loadgenCpuPercent.join(" + "),
          f(s.loadgenLoopDelayP99),
          f(s.backgroundCpuPercent, 0),
          String(s.lost),
          String(s.diverged),
          String(s.disconnects),
          updateCells(s.updates),
        ]),
      ),
    ),
    "",
    "## Cold load",
    "",
    `History: ${results.trace.ops} single-character edits sent as ${results.trace.updates} updates; ${results.trace.stateBytes} bytes as one Yjs state.`,
    "",
    table(
      [
        "system",
        "store (ms)",
        "cold connect→text (ms, each restart)",
        "server CPU (ms)",
        "second client (ms)",
        "second client: server CPU (its own process) / client CPU / client's Yjs (ms)",
        "second client's steps (ms after its start)",
        "RSS after (MB)",
        "text correct",
      ],
      results.cold.map((c) => [
        c.system,
        f(c.storeMs, 0),
        c.coldMs.map((v) => f(v, 0)).join(", "),
        c.serverCpuMs.join(", "),
        c.warmMs.map((v) => f(v, 0)).join(", "),
        (c.warmServerCpuMs ?? [])
          .map(
            (server, i) =>
              `${server} (${c.warmServerOwnCpuMs?.[i] ?? "?"}) / ${c.warmClientCpuMs?.[i] ?? "?"} / ${c.warmApplyMs?.[i] ?? "?"}`,
          )
          .join(", ") || "–",
        (c.warmPhasesMs ?? [])
          .map((phases) =>
            Object.entries(phases)
              .map(([phase, ms]) => `${phase} ${ms}`)
              .join(" → "),
          )
          .join("; ") || "–",
        c.rssMbAfterLoad.map((v) => f(v, 0)).join(", "),
        c.correct ? "yes" : "**no**",
      ]),
    ),
    "",
    "## Targets (issue 32)",
    "",
    ...targets(results, ramp),
    "",
    "## Machine",
    "",
    `- CPU: ${results.machine.cpu}, nproc ${results.machine.nproc}; Node ${results.machine.node}; Linux ${results.machine.kernel}`,
    "- `free -g`:",
    "",
    "```",
    results.machine.memory,
    "```",
    "",
    `Configuration: \`${JSON.stringify(results.config)}\``,
    "",
  ];
  writeFileSync(file, keepHandWritten(existsSync(file) ? readFileSync(file, "utf8") : "", lines));
}

/** The generated lines with the previous file's findings after its heading and its workspace section at its end. */
function keepHandWritten(previous: string, lines: string[]): string {
  const findingsAt = previous.indexOf(FINDINGS_SECTION);
  const findingsEnd = previous.indexOf(COMPARISON_SECTION, findingsAt);
  const findings = findingsAt >= 0 && findingsEnd > findingsAt ? previous.slice(findingsAt, findingsEnd) : "";
  const workspaceAt = previous.indexOf(WORKSPACE_SECTION);
  const workspace = workspaceAt >= 0 ? `\n${previous.slice(workspaceAt)}` : "";
  const comparisonAt = lines.indexOf(COMPARISON_SECTION);
  return `${[...lines.slice(0, comparisonAt), findings + lines.slice(comparisonAt).join("\n")].join("\n")}${workspace}`;
}

/** Sent, applied (bold when it differs) and refused (bold when not 0); dashes for runs before the counts. */
function updateCells(tally: UpdateTally | undefined): string {
  if (!tally) return "– | – | –";
  const applied = tally.applied === tally.sent ? String(tally.applied) : `**${tally.applied}**`;
  const deferred = tally.deferred ? ` (${tally.deferred} deferred)` : "";
  return `${tally.sent} | ${applied}${deferred} | ${tally.refused === 0 ? "0" : `**${tally.refused}**`}`;
}

/** Whether every server applied every update its clients sent, in every phase: said before any figure. */
function acceptance(load: LoadResult[]): string[] {
  const phases = load.flatMap((l) => [
    { label: l.label, phase: "connect", tally: l.connectUpdates },
    ...l.steps.map((s) => ({ label: l.label, phase: `${s.sessions} sessions`, tally: s.updates })),
  ]);
  if (phases.every((p) => p.tally === undefined))
    return ["*This run predates the count of applied and refused updates.*"];
  const failed = phases.filter((p) => !p.tally?.isAccepted);
  if (failed.length === 0)
    return [
      "Every server applied every update its clients sent, and refused none, in every step (see *Every step*).",
    ];
  return [
    "**Warning: not every update the clients sent was applied; those steps do not compare like with like:**",
    "",
    ...failed.map(
      (p) =>
        `- ${p.label}, ${p.phase}: ${p.tally ? `sent ${p.tally.sent}, applied ${p.tally.applied}, refused ${p.tally.refused}` : "not counted"}`,
    ),
  ];
}
