/** The edit p99 a step must stay at or under for the system to hold it (issue 32). */
export const CAPACITY_P99_MS = 50;

/** How many typing sessions a system held along a run's ramp. */
export interface Capacity {
  p99LimitMs: number;
  /**
   * The first step (typing sessions) whose edit p99 passed the limit, or that lost an insert
   * or diverged (a dropped edit is no sample, so it would hide in the p99); null when none did.
   */
  firstStepOver: number | null;
  /**
   * The highest step before it (every step when none was over): the capacity as measured, so
   * it orders two runs of one ramp; null when the first step was over.
   */
  lastStepHeld: number | null;
  /** The highest step run: when no step was over, the capacity is at least this. */
  topStep: number;
}

/** What `capacityOf` reads of a step (a `StepResult`). */
interface StepFigures {
  sessions: number;
  service: { p99: number };
  lost: number;
  diverged: number;
}

/** The capacity a ramp shows; the steps are taken in order of their sessions. */
export function capacityOf(steps: readonly StepFigures[]): Capacity {
  const ramp = [...steps].sort((a, b) => a.sessions - b.sessions);
  const over = ramp.findIndex((s) => !(s.service.p99 <= CAPACITY_P99_MS) || s.lost > 0 || s.diverged > 0);
  const held = over === -1 ? ramp.at(-1) : ramp[over - 1];
  return {
    p99LimitMs: CAPACITY_P99_MS,
    firstStepOver: over === -1 ? null : (ramp[over]?.sessions ?? null),
    lastStepHeld: held?.sessions ?? null,
    topStep: ramp.at(-1)?.sessions ?? 0,
  };
}

/** The capacity in a table cell: "≥ 400" (no step over), "200" (the last held), "< 25" (none held). */
export function formatCapacity(capacity: Capacity): string {
  if (capacity.firstStepOver === null) return `≥ ${capacity.topStep}`;
  if (capacity.lastStepHeld === null) return `< ${capacity.firstStepOver}`;
  return String(capacity.lastStepHeld);
}
