/**
 * Where a V8 CPU profile (`BENCH_CPU_PROF=dir`) spent its time: the functions with the most
 * self time, and the most total time per function of our code (apps/, packages/).
 * `node --import tsx bench/collab/profileTop.ts file.cpuprofile [count]`
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

// V8 writes this file, but it is still read from disk: check the shape before trusting it.
function isProfile(value: unknown): value is Profile {
  if (typeof value !== "object" || value === null) return false;
  const { nodes, samples, timeDeltas } = value as Record<string, unknown>;
  return (
    Array.isArray(nodes) &&
    Array.isArray(samples) &&
    Array.isArray(timeDeltas) &&
    nodes.every((n: unknown) => typeof n === "object" && n !== null && "id" in n && "callFrame" in n)
  );
}

const [file, countArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profileTop.ts file.cpuprofile [count]");
const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
if (!isProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`);
const profile = parsed;
const count = Number(countArg ?? 25);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

const label = (id: number) => {
  const { functionName, url, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
  const where = url.replace(/^file:\/\/.*?\/(node_modules|apps|packages)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
};
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  self.set(label(id), (self.get(label(id)) ?? 0) + us);
  // Each function on the stack counts once per sample, however deep it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = label(at);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}
const print = (title: string, entries: Map<string, number>, keep: (name: string) => boolean) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [name, us] of [...entries]
    .filter(([n]) => keep(n))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${name}`,
    );
  }
};
print("self time", self, () => true);
print("total time, our code", inclusive, (n) => / (apps|packages)\//.test(n));
