import { median } from "../lib/stats";
import { capacityOf, formatCapacity } from "./capacity";
import { bySystem, f, type Results, ratio, stepAt } from "./figures";
import type { LoadResult, StepResult } from "./loadRun";
import { isEqualWorkPeer, SYSTEM_IDS, type SystemId } from "./systems";

const pass = (isMet: boolean) => (isMet ? "**met**" : "**not met**");

/** Issue 32's targets, each judged from one run's figures (the idle scale test is not this bench's). */
export function targets(results: Results, ramp: number[]): string[] {
  const { load, cold } = bySystem(results);
  const ours = load("ours");
  if (!ours) return ["Ours was not run: no target can be judged."];
  const peers = SYSTEM_IDS.filter((id) => id !== "ours" && load(id));
  const equalWork = peers.filter(isEqualWorkPeer);
  // Ours / the peer at each of `steps`; NaN where either lacks the step.
  const ratios = (peer: SystemId, steps: number[], get: (s: StepResult) => number) =>
    steps.map((sessions) => {
      const [o, p] = [stepAt(ours, sessions), stepAt(load(peer), sessions)];
      return { sessions, value: o && p ? get(o) / get(p) : Number.NaN };
    });
  const noWorse = (label: string, steps: number[], get: (s: StepResult) => number, against: SystemId[]) => {
    const each = against.map((peer) => ({ peer, ratios: ratios(peer, steps, get) }));
    const isMet =
      each.length > 0 && each.every((e) => e.ratios.every((r) => Number.isFinite(r.value) && r.value <= 1));
    if (each.length === 0) return `- ${label}: *not judged* (no such peer in this run).`;
    if (steps.length === 0) return `- ${label}: *not judged* (no such step in this run).`;
    const detail = each
      .map((e) => `${e.peer}: ${e.ratios.map((r) => `${r.sessions} ${f(r.value, 2)}×`).join(", ")}`)
      .join("; ");
    return `- ${label}: ${pass(isMet)} (ours / peer at each step: ${detail}).`;
  };
  const p99 = (s: StepResult) => s.service.p99;
  const cpu = (s: StepResult) => s.cpuUsPerKeystroke;
  const inMemoryY = load("ywebsocket") ? ["ywebsocket" as const] : [];
  const middle = ramp.filter((n) => n === 100 || n === 200);
  const capacity = (r: LoadResult | undefined) => r?.capacity ?? capacityOf(r?.steps ?? []);
  const held = (r: LoadResult | undefined) => capacity(r).lastStepHeld ?? 0;
  const beaten = peers.filter((peer) => held(load(peer)) > held(ours));
  const warm = (system: SystemId) => {
    const result = cold(system);
    return result ? median(result.warmMs) : Number.NaN;
  };
  const warmPeers = SYSTEM_IDS.filter((id) => id !== "ours" && cold(id));
  const fastest = warmPeers.reduce<SystemId | undefined>(
    (best, id) => (best === undefined || warm(id) < warm(best) ? id : best),
    undefined,
  );
  const hocuspocus = peers.filter((id) => id.startsWith("hocuspocus"));
  const memory = (get: (r: LoadResult) => number | undefined, unit: string) =>
    hocuspocus.map((id) => {
      const peer = load(id);
      const [o, h] = [get(ours), peer && get(peer)];
      return {
        isMet: o !== undefined && h !== undefined && o <= h,
        text: `${id} ${f(h ?? Number.NaN)} ${unit}`,
      };
    });
  const heap = memory((r) => r.idle.heapPerSessionKb, "kB");
  const rss = memory((r) => r.idle.rssPerSessionKb, "kB");
  const broken = results.load.flatMap((l) =>
    [{ sessions: "connect", lost: 0, diverged: 0, updates: l.connectUpdates }, ...l.steps].flatMap((s) =>
      s.lost > 0 || s.diverged > 0 || s.updates?.isAccepted === false ? [`${l.label} at ${s.sessions}`] : [],
    ),
  );
  return [
    noWorse("Edit p99 ≤ 1.0× each equal-work peer at every step", ramp, p99, equalWork),
    noWorse("Server CPU per keystroke ≤ 1.0× each equal-work peer at every step", ramp, cpu, equalWork),
    noWorse("Edit p99 ≤ 1.0× in-memory y-websocket at 100 and 200 sessions", middle, p99, inMemoryY),
    noWorse(
      "Server CPU per keystroke ≤ 1.0× in-memory y-websocket at 100 and 200 sessions",
      middle,
      cpu,
      inMemoryY,
    ),
    `- At ${ramp[0]} sessions, ours / in-memory y-websocket (reported): p99 ${ratio(...pair(ours, load("ywebsocket"), ramp[0], p99))}, CPU per keystroke ${ratio(...pair(ours, load("ywebsocket"), ramp[0], cpu))}.`,
    `- Capacity ≥ every peer's, in-memory ones included: ${pass(peers.length > 0 && beaten.length === 0)} (ours ${formatCapacity(capacity(ours))}${beaten.length ? `; held more: ${beaten.map((id) => `${id} ${formatCapacity(capacity(load(id)))}`).join(", ")}` : ""}).`,
    `- A second client on the loaded ${results.trace.ops}-op document no slower than the fastest peer: ${pass(fastest !== undefined && warm("ours") <= warm(fastest))} (ours ${f(warm("ours"), 0)} ms, ${fastest ?? "no peer"} ${f(fastest ? warm(fastest) : Number.NaN, 0)} ms; medians, connect to correct text, the client's decode included).`,
    `- Memory per idle session no worse than Hocuspocus's: heap ${pass(heap.length > 0 && heap.every((m) => m.isMet))}, RSS ${pass(rss.length > 0 && rss.every((m) => m.isMet))} (ours ${f(ours.idle.heapPerSessionKb)} kB heap, ${f(ours.idle.rssPerSessionKb)} kB RSS; ${[...heap.map((m) => `heap ${m.text}`), ...rss.map((m) => `RSS ${m.text}`)].join(", ")}).`,
    `- No lost, refused or diverged update in any system at any step: ${pass(broken.length === 0)}${broken.length ? ` (${broken.join(", ")})` : ""}.`,
  ];
}

/** Ours' and a peer's figure at one step, for `ratio`. */
function pair(
  ours: LoadResult,
  peer: LoadResult | undefined,
  sessions: number | undefined,
  get: (s: StepResult) => number,
): [number, number] {
  const [o, p] = [
    sessions === undefined ? undefined : stepAt(ours, sessions),
    sessions === undefined ? undefined : stepAt(peer, sessions),
  ];
  return [o ? get(o) : Number.NaN, p ? get(p) : Number.NaN];
}
