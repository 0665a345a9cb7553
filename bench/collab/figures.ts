/**
 * One run's results as `run.ts` writes them to `results.json`, and what the report reads of
 * them: the figures of a system and of a step, and how a figure is written.
 */
import type { ColdLoadResult } from "./coldLoad";
import type { LoadResult, StepResult } from "./loadRun";
import type { SystemId } from "./systems";

export interface Machine {
  nproc: string;
  cpu: string;
  memory: string;
  node: string;
  kernel: string;
  dateUtc: string;
}

export interface Results {
  date: string;
  commit: string;
  machine: Machine;
  config: object;
  trace: { ops: number; updates: number; stateBytes: number };
  load: LoadResult[];
  cold: ColdLoadResult[];
}

/** A figure with `digits` decimals; a dash for one not measured. */
export const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

/** Ours / another's figure, as "1.03×"; a dash when there is nothing to divide by. */
export const ratio = (ours: number, other: number) => (other > 0 ? `${f(ours / other, 2)}×` : "–");

export function stepAt(result: LoadResult | undefined, sessions: number): StepResult | undefined {
  return result?.steps.find((s) => s.sessions === sessions);
}

/** A run's load and cold-load results by system (ours on another database, labelled "(…)", left out). */
export function bySystem(results: Results) {
  const load = (system: SystemId) => results.load.find((l) => l.system === system && !l.label.includes("("));
  const cold = (system: SystemId) => results.cold.find((c) => c.system === system);
  return { load, cold };
}
