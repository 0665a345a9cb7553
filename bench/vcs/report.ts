import type { machineInfo } from "../collab/report";
import { quantile } from "../lib/stats";
import type { SegmentRow } from "./phases";

/** Overhead target of issue 9 at p50, ms. */
export const TARGET_MS = 15;

/** ours: through the socket API; bare: git from a small process; bareInServer: from the server's. */
export type SideName = "ours" | "bare" | "bareInServer";

/** One side's samples (ms per iteration) and its traced segments per request. */
export interface SideResult {
  status: number[];
  addCommit: number[];
  segments: Record<string, SegmentRow[]>;
}

/** What one run wrote to `runs/vcs-<date>.json`. */
export interface VcsResults {
  date: string;
  commit: string;
  machine: ReturnType<typeof machineInfo> & {
    git: string;
    rssMb: number;
    /** VmPTE of the process that runs the server. */
    pageTablesKb: number;
    anchorRssMb: number;
    /** os.loadavg() when the iterations began and ended: other work on the machine. */
    loadBefore: number[];
    loadAfter: number[];
    /** Machine busy share (% of one core) in the second before the iterations began. */
    busyBeforePercent: number;
    /** CPU other processes used during the recorded iterations (% of one core). */
    otherCpuPercent: number;
  };
  config: {
    files: number;
    totalBytes: number;
    projectBytes: number;
    changed: number;
    warmup: number;
    iterations: number;
    settleMs: number;
  };
  sides: Record<SideName, SideResult>;
  /** The tree all repositories ended on. */
  headTree: string;
}

const f = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : "–");

function figureRow(label: string, ours: number[], bare: number[], inServer: number[]): string {
  const overhead = quantile(ours, 0.5) - quantile(bare, 0.5);
  // Iterations are interleaved: each one's difference is measured under the same conditions.
  const paired = quantile(
    ours.map((ms, i) => ms - (bare[i] ?? Number.NaN)),
    0.5,
  );
  const verdict = overhead <= TARGET_MS ? "**met**" : "**not met**";
  return [
    label,
    f(quantile(ours, 0.5)),
    f(quantile(ours, 0.95)),
    f(quantile(bare, 0.5)),
    f(quantile(bare, 0.95)),
    f(overhead),
    f(paired),
    `≤ ${TARGET_MS}`,
    verdict,
    `${f(quantile(inServer, 0.5))} / ${f(quantile(inServer, 0.95))}`,
    f(quantile(ours, 0.5) - quantile(inServer, 0.5)),
  ].join(" | ");
}

function segmentTable(rows: SegmentRow[] = []): string {
  const total = rows.reduce((sum, r) => sum + r.mean, 0);
  return [
    "| segment | p50 | mean | share of mean |",
    "|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.p50.toFixed(2)} | ${r.mean.toFixed(2)} | ${((r.mean / total) * 100).toFixed(0)} % |`,
    ),
    `| **total** | | ${total.toFixed(2)} | |`,
  ].join("\n");
}

/** The anchors' git processes side by side: the same commands from a small and a large process. */
function anchorTable(small: SegmentRow[] = [], inServer: SegmentRow[] = []): string {
  return [
    "| segment | from a small process: p50 | mean | from the server's process: p50 | mean |",
    "|---|---|---|---|---|",
    ...small.map((r) => {
      const other = inServer.find((o) => o.name === r.name);
      return `| ${r.name} | ${r.p50.toFixed(2)} | ${r.mean.toFixed(2)} | ${other?.p50.toFixed(2) ?? "–"} | ${other?.mean.toFixed(2) ?? "–"} |`;
    }),
  ].join("\n");
}

/** The generated part of RESULTS.md: figures, the trace's breakdown, machine, how to rerun. */
export function renderResults(r: VcsResults): string {
  const m = r.machine;
  const c = r.config;
  const { ours, bare, bareInServer } = r.sides;
  return `## Figures (ms, ${c.iterations} iterations after ${c.warmup} warm-up)

Run ${r.date}, our server at commit \`${r.commit}\`; raw data in \`runs/vcs-${r.date.slice(0, 10)}.json\`.
${c.files} files (${(c.projectBytes / 1024).toFixed(0)} KiB at the end), ${c.changed} of them changed per iteration.

| operation | ours p50 | ours p95 | bare git p50 | bare git p95 | overhead p50 (ours − bare) | paired overhead p50 | target | met? | bare git from the server's process p50 / p95 | ours − that, p50 |
|---|---|---|---|---|---|---|---|---|---|---|
| ${figureRow("status", ours.status, bare.status, bareInServer.status)} |
| ${figureRow("add + commit", ours.addCommit, bare.addCommit, bareInServer.addCommit)} |

*Ours*: from emitting \`gitOperation\` to its ack at the client (add + commit: the two
requests' times added). *Bare git*: \`git status --porcelain=v1\`, and \`git add --all\` then
\`git commit -m …\`, through \`execFile\` from a small Node process (${m.anchorRssMb} MB RSS, like a
shell) on a copy of the tree; *from the server's process*: the same commands from the process
that runs the server (${m.rssMb} MB RSS, ${m.pageTablesKb} kB of page tables), so it pays what starting git costs the server.
*Paired* is the median of each iteration's ours − bare (the sides run back to back, each
going first in turn).

## Where our time goes (ms per request, from the trace)

### status

${segmentTable(ours.segments.status)}

### add

${segmentTable(ours.segments.add)}

### commit

${segmentTable(ours.segments.commit)}

### bare git

${anchorTable(bare.segments.status, bareInServer.segments.status)}

${anchorTable(bare.segments["add + commit"], bareInServer.segments["add + commit"])}

All three repositories ended on tree \`${r.headTree}\`.

## Machine

- CPU: ${m.cpu}, nproc ${m.nproc}; Linux ${m.kernel}; Node ${m.node}; ${m.git}
- Other processes' CPU during the recorded iterations: ${m.otherCpuPercent} % of a core (machine busy ${m.busyBeforePercent} % of a core just before)
- Load average when the iterations began / ended: ${m.loadBefore.map((l) => l.toFixed(2)).join(", ")} / ${m.loadAfter.map((l) => l.toFixed(2)).join(", ")}
- \`free -g\`:

\`\`\`
${m.memory}
\`\`\`

## Rerun

\`\`\`sh
npm run bench:vcs -w bench                      # HEAD's server, ~1 min; rewrites this part of RESULTS.md
BENCH_REF=worktree npm run bench:vcs -w bench   # the files on disk instead
\`\`\`
`;
}
