import * as Y from "yjs";
import { generateTrace } from "../collab/trace";
import { median } from "../lib/stats";

/**
 * What each Yjs step a cold load could take costs on the 259,778-op history, in CPU ms
 * (process.cpuUsage, median of `RUNS`): the figures the server's lazy load was chosen from.
 * Run: `node --import tsx bench/coldload/yjsCosts.ts` from the repository root.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function cpuMs<T>(run: () => T): { ms: number; value: T } {
  const before = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}

function measure(name: string, run: () => unknown): void {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(cpuMs(run).ms);
  console.log(
    `${name.padEnd(58)} ${median(samples).toFixed(1).padStart(7)} ms  (${samples.map((s) => s.toFixed(0)).join(", ")})`,
  );
}

const trace = generateTrace(259_778, 1, "f-benchfile");
const source = new Y.Doc();
for (const chunk of trace.chunks) Y.applyUpdate(source, chunk);
const state = Y.encodeStateAsUpdate(source);
const stateV2 = Y.encodeStateAsUpdateV2(source);
const stateVector = Y.encodeStateVector(source);

// A tail of 500 single-keystroke updates from another client, as the log holds before compaction.
const typist = new Y.Doc();
Y.applyUpdate(typist, state);
const tail: Uint8Array[] = [];
typist.on("update", (u: Uint8Array) => tail.push(u));
const text = typist.getText("f-benchfile");
for (let i = 0; i < 500; i++) text.insert(Math.floor(text.length / 2), "x");
const half = new Y.Doc();
for (const chunk of trace.chunks.slice(0, trace.chunks.length / 2)) Y.applyUpdate(half, chunk);
const halfVector = Y.encodeStateVector(half);

console.log(
  `state ${state.byteLength} bytes (V2 ${stateV2.byteLength}), ${source.getText("f-benchfile").length} chars`,
);
measure("applyUpdate(state) into a new Y.Doc", () => Y.applyUpdate(new Y.Doc(), state));
measure("applyUpdateV2(stateV2) into a new Y.Doc", () => Y.applyUpdateV2(new Y.Doc(), stateV2));
measure("encodeStateAsUpdate(doc)", () => Y.encodeStateAsUpdate(source));
measure("encodeStateAsUpdate(doc, full state vector)", () => Y.encodeStateAsUpdate(source, stateVector));
measure("encodeStateAsUpdate(doc, half state vector)", () => Y.encodeStateAsUpdate(source, halfVector));
measure("encodeStateVectorFromUpdate(state)", () => Y.encodeStateVectorFromUpdate(state));
measure("diffUpdate(state, full state vector)", () => Y.diffUpdate(state, stateVector));
measure("diffUpdate(state, half state vector)", () => Y.diffUpdate(state, halfVector));
measure("mergeUpdates([state, tail...])", () => Y.mergeUpdates([state, ...tail]));
measure("mergeUpdates(tail of 500 keystrokes)", () => Y.mergeUpdates(tail));
measure("parseUpdateMeta x500 (tail)", () => tail.map((u) => Y.parseUpdateMeta(u)));
measure("Buffer.from(state) copy", () => Buffer.from(state));
const summary = Y.encodeSnapshot(Y.snapshot(source));
console.log(`Y.encodeSnapshot(Y.snapshot(doc)): ${summary.byteLength} bytes`);
measure("encodeSnapshot(snapshot(doc)) (state vector + delete set)", () =>
  Y.encodeSnapshot(Y.snapshot(source)),
);
measure("decodeSnapshot (state vector + delete set)", () => Y.decodeSnapshot(summary));
