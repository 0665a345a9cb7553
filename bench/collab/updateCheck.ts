import type { UpdateCounts } from "./servers";

/**
 * What the clients sent and the server did with it over one phase of a run, between two
 * moments when nothing was in flight (no client typing, the last keystrokes delivered).
 */
export interface UpdateTally {
  /** Local Yjs updates the clients made; each goes out as one update message. */
  sent: number;
  applied: number;
  refused: number;
  /** Ours only (see UpdateCounts). */
  deferred?: number;
  /** The server applied exactly what was sent and refused nothing: the comparison is fair. */
  isAccepted: boolean;
}

/**
 * Compares the updates the clients sent during a phase with the server's counts before and
 * after it, and says so loudly when they differ: a server that refuses or drops the clients'
 * messages would otherwise look fast for doing less.
 */
export function tallyUpdates(
  label: string,
  phase: string,
  sent: number,
  before: UpdateCounts,
  after: UpdateCounts,
): UpdateTally {
  const applied = after.applied - before.applied;
  const refused = after.refused - before.refused;
  const tally: UpdateTally = { sent, applied, refused, isAccepted: refused === 0 && applied === sent };
  if (after.deferred !== undefined) tally.deferred = after.deferred - (before.deferred ?? 0);
  if (!tally.isAccepted) {
    console.error(
      `\n!!! [${label}] ${phase}: the clients sent ${sent} updates, the server applied ${applied} and refused ${refused}` +
        `${tally.deferred ? ` (deferred ${tally.deferred})` : ""}: this step does not compare like with like\n`,
    );
  }
  return tally;
}
