import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { mean, quantile } from "../lib/stats";
import type { CpuWindow } from "./cpu";
import { JOIN_STEPS, type JoinSample, markAt, stepEnds } from "./join";

/** The spec's product waited this long after a newcomer arrived before it even offered. */
export const ANCHOR_OFFER_DELAY_MS = 1000;

export function machineInfo() {
  const sh = (command: string) => execSync(command, { encoding: "utf8" }).trim();
  return {
    nproc: Number(sh("nproc")),
    cpu: /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown",
    memory: sh("free -g"),
    node: process.version,
    kernel: os.release(),
    loadAverage: os.loadavg(),
  };
}

/** One CPU window: who was in the session and what each link received during it. */
export interface CpuScenario {
  label: string;
  participants: number;
  inCall: boolean;
  window: CpuWindow;
  /** Per receiving link: decoded video frames per second over the window, and frame width. */
  links: { fps: number; frameWidth: number }[];
}

export interface CallsResults {
  date: string;
  commit: string;
  /** apps/ or packages/ differed from the commit when the run began. */
  isDirty: boolean;
  /** When apps/web/dist-e2e was built, and the last commit to apps/web or packages. */
  webBuild: { builtAt: string; lastCommitAt: string };
  machine: ReturnType<typeof machineInfo> & { loadAverageAtEnd: number[] };
  chromium: string;
  config: {
    joins: number;
    pollMs: number;
    joinTimeoutMs: number;
    settleMs: number;
    cpuSeconds: number;
    cpuWarmupSeconds: number;
    args: string[];
  };
  joins: JoinSample[];
  joinPhaseCpu: CpuWindow;
  cpu: CpuScenario[];
}

const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

function summaryRow(label: string, xs: number[]) {
  const finite = xs.filter(Number.isFinite);
  return `| ${label} | ${f(quantile(finite, 0.5))} | ${f(quantile(finite, 0.99))} | ${f(Math.min(...finite))} | ${f(Math.max(...finite))} | ${f(mean(finite))} |`;
}

function stepTable(joins: JoinSample[]) {
  const ends = joins.map(stepEnds);
  const rows = JOIN_STEPS.map(({ label }, i) => {
    // A step lasts from the previous step's end (the click for the first) to its own.
    const durations = ends.map((e) => (e[i] ?? Number.NaN) - (i === 0 ? 0 : (e[i - 1] ?? Number.NaN)));
    const at = ends.map((e) => e[i] ?? Number.NaN).filter(Number.isFinite);
    const seen = durations.filter(Number.isFinite);
    return `| ${label} | ${f(quantile(seen, 0.5))} | ${f(Math.max(...seen))} | ${f(quantile(at, 0.5))} | ${seen.length}/${joins.length} |`;
  });
  return [
    "| step | p50 of the step | max of the step | p50 of its end (since click) | seen |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function cpuTable(r: CallsResults) {
  const cores = r.machine.nproc;
  const rows = r.cpu.map((s) => {
    const g = s.window.groups;
    const core = (seconds: number) => (100 * seconds) / s.window.seconds;
    const browser = g.browser?.cpuSeconds ?? Number.NaN;
    const ours = Object.values(g).reduce((sum, x) => sum + x.cpuSeconds, 0);
    const fps = s.links.map((l) => l.fps);
    const widths = [...new Set(s.links.map((l) => l.frameWidth))].join(", ");
    return `| ${s.label} | ${f(s.window.seconds, 1)} | ${f(core(browser))} % | ${f(core(browser) / cores)} % | ${f(core(g.server?.cpuSeconds ?? Number.NaN), 1)} % | ${f(core(s.window.machineCpuSeconds - ours))} % | ${f(core(s.window.unattributedCpuSeconds))} % | ${s.links.length ? `${f(Math.min(...fps), 1)}–${f(Math.max(...fps), 1)}` : "–"} | ${widths || "–"} | ${g.browser?.processes ?? "–"} |`;
  });
  return [
    `| scenario | window (s) | browser CPU, % of one core | % of the machine (${cores} cores) | server, % of one core | other processes, % of one core | interrupts and steal, % of one core | video fps received per link | frame width | browser processes |`,
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** A join that decoded no video: what was last polled, then every time-stamp and console line. */
function failureSection(sample: JoinSample, index: number) {
  return [
    `### Failed join #${index}`,
    "",
    sample.failure,
    "",
    ...sample.marks.map((m) => `- ${f(m.ms)} ms ${m.side}: ${m.name}`),
    ...sample.console.map((line) => `- console ${line}`),
    "",
  ].join("\n");
}

/** The generated part of RESULTS.md. */
export function renderResults(r: CallsResults): string {
  const first = r.joins.map((j) => j.firstFrameMs).filter(Number.isFinite);
  const failed = r.joins.filter((j) => j.failure !== null);
  const p50 = quantile(first, 0.5);
  const m = r.machine;
  const j = r.joinPhaseCpu;
  const others = j.machineCpuSeconds - Object.values(j.groups).reduce((sum, x) => sum + x.cpuSeconds, 0);
  return `## Join call → first decoded remote video frame (ms, ${r.joins.length} joins)

Run ${r.date} at commit \`${r.commit}\`${r.isDirty ? " (apps/ or packages/ had uncommitted changes)" : ""}; raw data in \`results.json\`.
Web build of ${r.webBuild.builtAt}${r.webBuild.builtAt < r.webBuild.lastCommitAt ? `, **older than the last web commit (${r.webBuild.lastCommitAt})**` : ` (last web commit ${r.webBuild.lastCommitAt})`}.

| measure | p50 | p99 | min | max | mean |
|---|---|---|---|---|---|
${summaryRow("click → first decoded video frame (getStats polled: the figure)", first)}
${summaryRow(
  "click → first frame shown on a video element (time-stamp)",
  r.joins.map((x) => markAt(x, "joiner", "first frame shown")),
)}
${summaryRow(
  "click → link connected (time-stamp)",
  r.joins.map((x) => markAt(x, "joiner", "link connected")),
)}

The first row is the figure asked for: the click on Join call, then \`getStats()\` polled every
${r.config.pollMs} ms in the page until a link's \`framesDecoded\` is above 0. Chromium caches a
connection's stats report for about 50 ms, so this figure can be that much (plus one poll) later
than the decode itself. The second row is exact: a \`requestVideoFrameCallback\` on a video
element of our own showing the remote track, in the same page and clock. p99 by nearest rank
over ${r.joins.length} samples is the largest sample: with so few joins it is the worst one seen, not a
tail estimate. Width of the first frames: ${[...new Set(r.joins.map((x) => x.frameWidth))].join(", ")} px (the sender starts small and
grows as its bandwidth estimate does).

**Against the anchor**: p50 ${f(p50)} ms / ${ANCHOR_OFFER_DELAY_MS} ms = **${f(p50 / ANCHOR_OFFER_DELAY_MS, 2)}×** the spec's
product's offer delay alone. That product waited ${ANCHOR_OFFER_DELAY_MS} ms before even offering, so it
would measure at least ${ANCHOR_OFFER_DELAY_MS} ms plus its own devices, negotiation, ICE and first
frame; this ratio is a lower bound on how much faster we are, not a measured comparison (the
spec's product was not run).

${failed.length === 0 ? "Every join decoded video." : `**${failed.length} of ${r.joins.length} joins decoded no video within ${r.config.joinTimeoutMs} ms** (left out of the figures above, which cover the ${first.length} others; see "Failed joins" below).`}

### Where a join's time goes (ms, from time-stamps in both pages)

${stepTable(r.joins)}

The joiner offers (it is the newcomer); "the other side" is the participant already in the call.
Time-stamps come from wrapping \`getUserMedia\` and \`RTCPeerConnection\` in the page (marks.ts);
the two pages' clocks are compared in epoch milliseconds.

### Every join

| # | first frame (polled) | first frame shown | link connected | first frame width | polls |
|---|---|---|---|---|---|
${r.joins.map((x, i) => `| ${i + 1} | ${f(x.firstFrameMs)} | ${f(markAt(x, "joiner", "first frame shown"))} | ${f(markAt(x, "joiner", "link connected"))} | ${x.frameWidth} | ${x.polls} |`).join("\n")}

${failed.map((x) => failureSection(x, r.joins.indexOf(x) + 1)).join("\n")}
During the ${f(j.seconds, 0)} s of the join phase (editors loading, joins, contexts closing): browser
${f((100 * (j.groups.browser?.cpuSeconds ?? 0)) / j.seconds)} %, server ${f((100 * (j.groups.server?.cpuSeconds ?? 0)) / j.seconds)} %, other processes ${f((100 * others) / j.seconds)} %, interrupts and steal
${f((100 * j.unattributedCpuSeconds) / j.seconds)} % of one core.

## Browser CPU of a call (for reference)

All participants are contexts of one headless Chromium (as in e2e), so "browser" is every
Chromium process together: ${r.cpu.map((s) => s.participants).join("/")} people's renderers plus the shared browser, GPU
(software), network and audio processes. Measured as utime + stime from \`/proc/<pid>/stat\` of
the browser's process tree over a ${r.config.cpuSeconds} s window that starts ${r.config.cpuWarmupSeconds} s after every link
decodes video; nothing polls the pages during the window.

${cpuTable(r)}

## Machine

- CPU: ${m.cpu}, nproc ${m.nproc}; Linux ${m.kernel}; Node ${m.node}; Chromium ${r.chromium} (headless)
- Load average at start / end: ${m.loadAverage.map((l) => l.toFixed(2)).join(", ")} / ${m.loadAverageAtEnd.map((l) => l.toFixed(2)).join(", ")}
- \`free -g\`:

\`\`\`
${m.memory}
\`\`\`
`;
}
