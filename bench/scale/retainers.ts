/**
 * What the idle clients add to the server's JS heap, by constructor, and for each of the largest
 * rows who holds those objects (their holder and its holder): where to cut. Native and synthetic
 * nodes (buffers' contents, C++ handles) are left out, as heapUsed leaves them out. On the
 * snapshots `BENCH_KEEP_SNAPSHOTS=1` keeps, from bench/:
 * `node --import tsx scale/retainers.ts before.heapsnapshot idle.heapsnapshot <clients> [rows]`
 */
import { readFileSync } from "node:fs";
import { type Edge, type Node, parseSnapshot } from "v8-heapsnapshot";
import { hasProperty, STRINGS } from "./heapSummary";

const [beforeFile, afterFile, clientsText, rowsText] = process.argv.slice(2);
const clients = Number(clientsText);
const ROWS = Number(rowsText ?? 40);
const offHeap = (n: Node) => n.type === "native" || n.type === "synthetic";
const has = hasProperty;
function label(n: Node): string {
  if (STRINGS.has(n.type)) return `(${n.type})`;
  if (n.type === "closure") return `(closure) ${n.name}`;
  if (n.type !== "object") return `(${n.type}) ${n.name.slice(0, 50)}`;
  if (n.name === "Socket") {
    if (has(n, "nsp")) return "sio.Socket";
    if (has(n, "upgrading")) return "eio.Socket";
    if (has(n, "_handle") || has(n, "connecting")) return "net.Socket";
  }
  if (n.name === "WebSocket") return has(n, "_receiver") ? "ws.WebSocket" : "eio.WebSocket";
  return n.name;
}
function tally(nodes: Node[]) {
  const m = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (const n of nodes) {
    if (offHeap(n)) continue;
    total += n.self_size;
    const l = label(n);
    const e = m.get(l) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += n.self_size;
    m.set(l, e);
  }
  return { m, total };
}
const before = await parseSnapshot(readFileSync(beforeFile as string, "utf8"));
const b = tally(before.nodes);
const after = await parseSnapshot(readFileSync(afterFile as string, "utf8"));
const a = tally(after.nodes);
console.log(
  `on-heap total before ${(b.total / 1048576).toFixed(1)} MB after ${(a.total / 1048576).toFixed(1)} MB: ${((a.total - b.total) / clients).toFixed(0)} B a client`,
);
const rows = [...new Set([...a.m.keys(), ...b.m.keys()])]
  .map((l) => ({
    l,
    c: ((a.m.get(l)?.count ?? 0) - (b.m.get(l)?.count ?? 0)) / clients,
    s: ((a.m.get(l)?.bytes ?? 0) - (b.m.get(l)?.bytes ?? 0)) / clients,
  }))
  .sort((x, y) => y.s - x.s)
  .slice(0, ROWS);
const holder = (e: Edge) =>
  `${label(e.from)}${e.type === "element" ? "[]" : e.type === "context" ? `~${e.name}` : `.${e.name}`}`;
const byLabel = new Map<string, Node[]>();
for (const n of after.nodes) {
  if (offHeap(n)) continue;
  const l = label(n);
  const list = byLabel.get(l);
  if (list) list.push(n);
  else byLabel.set(l, [n]);
}
for (const r of rows) {
  console.log(`\n${r.l}: ${r.c.toFixed(2)} a client, ${r.s.toFixed(0)} B a client`);
  const sig = new Map<string, { count: number; bytes: number }>();
  for (const n of byLabel.get(r.l) ?? []) {
    const edges = n.in_edges.filter((e) => e.type !== "weak");
    // Two levels: the holder and what holds it.
    const e1 = edges[0];
    let key = "(no strong retainer)";
    if (e1) {
      const up = e1.from.in_edges.find((e) => e.type !== "weak");
      key = `${up ? `${holder(up)} > ` : ""}${holder(e1)}${edges.length > 1 ? ` (+${edges.length - 1})` : ""}`;
    }
    const e = sig.get(key) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += n.self_size;
    sig.set(key, e);
  }
  for (const [k, v] of [...sig].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, 8))
    console.log(
      `   ${(v.count / clients).toFixed(2).padStart(6)} ${(v.bytes / clients).toFixed(0).padStart(5)} B  ${k.slice(0, 150)}`,
    );
}
