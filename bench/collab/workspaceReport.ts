import { median } from "../lib/stats";
import type { LoadResult } from "./loadRun";
import type { machineInfo } from "./report";
import type { JoinResult, WorkspaceConfig, WorkspaceRound } from "./workspaceRun";

interface WorkspaceResults {
  date: string;
  commit: string;
  machine: ReturnType<typeof machineInfo>;
  config: { sessions: number; steps: number[]; workspace: WorkspaceConfig };
  rounds: WorkspaceRound[];
}

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const TARGETS = { joinP50: 150, joinP99: 400, typingRatio: 1.2 };

/**
 * The workspace run as markdown: join times, memory per idle session and the typing step,
 * one-file and workspace side by side per round, with the targets of issue 8.
 */
export function workspaceSummary(results: WorkspaceResults): string {
  const { files } = results.config.workspace;
  const lines = [
    `Run ${results.date}, our server at commit \`${results.commit}\`, ${results.config.sessions} sessions (3 clients each), ${results.rounds.length} round(s).`,
    "",
    `| round | session shape | join | joins | p50 ms | p99 ms | max ms |`,
    "|---|---|---|---|---|---|---|",
  ];
  const shapes = (round: WorkspaceRound) =>
    [
      ["one file", round.oneFile],
      [`${files} files`, round.workspace],
    ] as const;
  results.rounds.forEach((round, i) => {
    for (const [shape, result] of shapes(round)) {
      for (const join of result.joins) {
        const { count, p50, p99, max } = join.summary;
        lines.push(`| ${i + 1} | ${shape} | ${join.kind} | ${count} | ${f(p50)} | ${f(p99)} | ${f(max)} |`);
      }
    }
  });
  lines.push(
    "",
    "| round | session shape | RSS per idle session (kB) | heap per idle session (kB) | server RSS (MB) | typing sessions | edit p50 ms | edit p99 ms | p99 from timetable ms | server CPU % | µs/keystroke | other processes CPU % | lost | diverged |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  results.rounds.forEach((round, i) => {
    for (const [shape, result] of shapes(round)) {
      for (const step of result.steps) {
        lines.push(
          `| ${i + 1} | ${shape} | ${f(result.idle.rssPerSessionKb)} | ${f(result.idle.heapPerSessionKb)} | ${f(result.idle.rssMb, 0)} | ${step.sessions} | ${f(step.service.p50, 2)} | ${f(step.service.p99, 2)} | ${f(step.intended.p99, 2)} | ${f(step.serverCpuPercent)} | ${f(step.cpuUsPerKeystroke, 0)} | ${f(step.backgroundCpuPercent, 0)} | ${step.lost} | ${step.diverged} |`,
        );
      }
    }
  });
  const p99s = (pick: (r: WorkspaceRound) => LoadResult) =>
    results.rounds.flatMap((r) => pick(r).steps.map((s) => s.service.p99));
  const oneFileP99 = median(p99s((r) => r.oneFile));
  const workspaceP99 = median(p99s((r) => r.workspace));
  const ratio = workspaceP99 / oneFileP99;
  const joins = (kind: JoinResult["kind"]) =>
    results.rounds.flatMap((r) => r.workspace.joins.filter((j) => j.kind === kind).map((j) => j.summary));
  lines.push("", "Targets:");
  for (const kind of [
    "cold room, one at a time",
    "loaded room, one at a time",
    "loaded room, concurrently",
  ] as const) {
    const summaries = joins(kind);
    const p50 = median(summaries.map((s) => s.p50));
    const p99 = median(summaries.map((s) => s.p99));
    const isMet = p50 <= TARGETS.joinP50 && p99 <= TARGETS.joinP99;
    lines.push(
      `- join, ${kind} (${files} files; median over rounds): p50 ${f(p50)} ms (≤ ${TARGETS.joinP50}), p99 ${f(p99)} ms (≤ ${TARGETS.joinP99}): **${isMet ? "met" : "not met"}**`,
    );
  }
  if (Number.isFinite(ratio))
    lines.push(
      `- typing p99, every typist in its own file vs one file (median over rounds): ${f(workspaceP99, 2)} / ${f(oneFileP99, 2)} ms = ${f(ratio, 2)}× (≤ ${TARGETS.typingRatio}×): **${ratio <= TARGETS.typingRatio ? "met" : "not met"}**`,
    );
  return lines.join("\n");
}
