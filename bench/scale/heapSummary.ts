/**
 * What the idle clients hold in the server's heap: two V8 heap snapshots of the server (before
 * the clients connected, and once they idle), compared by constructor and by owner.
 */
import { readFileSync } from "node:fs";
import { type Edge, type Node, parseSnapshot } from "v8-heapsnapshot";

/** One row of a comparison: what one client (on average) added. */
export interface HeapRow {
  label: string;
  /** Objects per client (negative: fewer than before). */
  countPerClient: number;
  bytesPerClient: number;
}

export interface HeapSummary {
  clients: number;
  /** Heap the snapshots account for, before and after, in MB. */
  beforeMb: number;
  afterMb: number;
  /** Self size by constructor (a `Socket` told apart by what it holds), largest first. */
  byConstructor: HeapRow[];
  /**
   * Each object charged to its nearest dominator among the owners below (the object that
   * alone keeps it alive), so each row is what freeing that owner frees; rows add up to the
   * whole difference.
   */
  byOwner: HeapRow[];
}

/**
 * The owners an idle client's memory is charged to. The nearest one wins: an object dominated
 * by a ws WebSocket inside an engine.io transport is charged to the WebSocket.
 */
const OWNERS = new Set([
  "net.Socket",
  "ws WebSocket (socket.io)",
  "ws WebSocket (lane)",
  "engine.io WebSocket transport",
  "engine.io Socket",
  "socket.io Socket",
  "socket.io Client",
  "IncomingMessage",
  "Y.Doc",
  "Room",
  "Lane",
]);

const NOT_OWNED = "(held by nothing above)";

/** Constructors too common to say whose an object is: the nearest other one above it does. */
const isGeneric = (label: string) =>
  label.startsWith("(") ||
  label.startsWith("system /") ||
  ["Object", "Array", "Map", "Set", "WeakMap", "Promise", "Buffer", "Uint8Array", "ArrayBuffer"].includes(
    label,
  );
/** Compiled code and object shapes: made once for a code path, not per client (more of it with few clients). */
const CODE = "(compiled code and shapes)";

/** Kinds whose `name` is their content: counted as one row each. */
export const STRINGS = new Set([
  "string",
  "concatenated string",
  "sliced string",
  "number",
  "bigint",
  "regexp",
  "symbol",
]);

export const hasProperty = (node: Node, name: string) =>
  node.out_edges.some((e) => e.type === "property" && e.name === name);

/** A node's constructor, with the classes that share a name (`Socket`, `WebSocket`, `Doc`) told apart. */
function labelOf(node: Node): string {
  if (STRINGS.has(node.type)) return `(${node.type})`;
  if (node.type !== "object") return `(${node.type}) ${node.name.slice(0, 60)}`;
  switch (node.name) {
    case "Socket":
      if (hasProperty(node, "nsp")) return "socket.io Socket";
      if (hasProperty(node, "upgrading")) return "engine.io Socket";
      if (hasProperty(node, "_handle") || hasProperty(node, "connecting")) return "net.Socket";
      return "Socket (other)";
    case "WebSocket":
      if (hasProperty(node, "_receiver")) {
        // engine.io's transport holds its ws socket as `socket`; a lane's is held by our Lane.
        const isEngineIo = node.in_edges.some(
          (e) => e.type === "property" && e.name === "socket" && e.from.name === "WebSocket",
        );
        return isEngineIo ? "ws WebSocket (socket.io)" : "ws WebSocket (lane)";
      }
      return hasProperty(node, "perMessageDeflate") ? "engine.io WebSocket transport" : "WebSocket (other)";
    case "Client":
      return hasProperty(node, "conn") && hasProperty(node, "sockets") ? "socket.io Client" : "Client";
    case "Doc":
      return hasProperty(node, "store") && hasProperty(node, "clientID") ? "Y.Doc" : "Doc";
    default:
      return node.name;
  }
}

/**
 * Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm) of the graph from
 * node 0, V8's synthetic root, through every edge but the weak ones. Unreachable nodes get -1.
 */
function immediateDominators(nodes: Node[], index: Map<Node, number>): { idom: Int32Array; order: number[] } {
  const strong = (e: Edge) => e.type !== "weak";
  const postorder: number[] = [];
  const rank = new Int32Array(nodes.length).fill(-1);
  const visited = new Uint8Array(nodes.length);
  // An explicit stack: the heap graph is far deeper than the call stack allows.
  const stack: { node: number; next: number }[] = [{ node: 0, next: 0 }];
  visited[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { node: number; next: number };
    const edges = (nodes[top.node] as Node).out_edges;
    let pushed = false;
    while (top.next < edges.length) {
      const edge = edges[top.next++] as Edge;
      const to = index.get(edge.to) as number;
      if (!strong(edge) || visited[to]) continue;
      visited[to] = 1;
      stack.push({ node: to, next: 0 });
      pushed = true;
      break;
    }
    if (pushed) continue;
    rank[top.node] = postorder.length;
    postorder.push(top.node);
    stack.pop();
  }
  const idom = new Int32Array(nodes.length).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    let [x, y] = [a, b];
    while (x !== y) {
      while ((rank[x] as number) < (rank[y] as number)) x = idom[x] as number;
      while ((rank[y] as number) < (rank[x] as number)) y = idom[y] as number;
    }
    return x;
  };
  const order = postorder.slice().reverse();
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of order) {
      if (b === 0) continue;
      let next = -1;
      for (const edge of (nodes[b] as Node).in_edges) {
        if (!strong(edge)) continue;
        const p = index.get(edge.from) as number;
        if (rank[p] === -1 || idom[p] === -1) continue;
        next = next === -1 ? p : intersect(p, next);
      }
      if (next !== -1 && idom[b] !== next) {
        idom[b] = next;
        changed = true;
      }
    }
  }
  return { idom, order };
}

interface Tally {
  totalBytes: number;
  byConstructor: Map<string, { count: number; bytes: number }>;
  byOwner: Map<string, { count: number; bytes: number }>;
}

function add(map: Map<string, { count: number; bytes: number }>, key: string, bytes: number) {
  const entry = map.get(key) ?? { count: 0, bytes: 0 };
  entry.count += 1;
  entry.bytes += bytes;
  map.set(key, entry);
}

/** Reads one snapshot and tallies its reachable objects by constructor and by owner. */
async function tally(file: string): Promise<Tally> {
  const snapshot = await parseSnapshot(readFileSync(file, "utf8"));
  const { nodes } = snapshot;
  const index = new Map(nodes.map((node, i) => [node, i]));
  const { idom, order } = immediateDominators(nodes, index);
  const owner: (string | undefined)[] = new Array(nodes.length);
  // The nearest dominator with a telling constructor, for what no owner holds.
  const named: (string | undefined)[] = new Array(nodes.length);
  const result: Tally = { totalBytes: 0, byConstructor: new Map(), byOwner: new Map() };
  // A dominator comes before what it dominates in reverse postorder.
  for (const i of order) {
    const node = nodes[i] as Node;
    const label = labelOf(node);
    if (OWNERS.has(label)) owner[i] = label;
    else if (i === 0) owner[i] = NOT_OWNED;
    else owner[i] = owner[idom[i] as number];
    named[i] = !isGeneric(label) || i === 0 ? label : named[idom[i] as number];
    const charged =
      node.type === "code" || node.type === "object shape"
        ? CODE
        : owner[i] === NOT_OWNED
          ? `${NOT_OWNED}: below ${named[i] || "the root"}`
          : owner[i];
    result.totalBytes += node.self_size;
    add(result.byConstructor, label, node.self_size);
    add(result.byOwner, charged ?? NOT_OWNED, node.self_size);
  }
  return result;
}

/** The rows of `after` minus `before`, per client, largest first; `limit` rows at most. */
function difference(
  before: Map<string, { count: number; bytes: number }>,
  after: Map<string, { count: number; bytes: number }>,
  clients: number,
  limit: number,
): HeapRow[] {
  const labels = new Set([...before.keys(), ...after.keys()]);
  return [...labels]
    .map((label) => {
      const [b, a] = [before.get(label), after.get(label)];
      return {
        label,
        countPerClient: ((a?.count ?? 0) - (b?.count ?? 0)) / clients,
        bytesPerClient: ((a?.bytes ?? 0) - (b?.bytes ?? 0)) / clients,
      };
    })
    .sort((x, y) => y.bytesPerClient - x.bytesPerClient)
    .slice(0, limit);
}

/** Compares the snapshot taken before `clients` connected with the one taken once they idled. */
export async function summarizeHeap(
  beforeFile: string,
  afterFile: string,
  clients: number,
): Promise<HeapSummary> {
  const before = await tally(beforeFile);
  const after = await tally(afterFile);
  return {
    clients,
    beforeMb: before.totalBytes / 1024 / 1024,
    afterMb: after.totalBytes / 1024 / 1024,
    byConstructor: difference(before.byConstructor, after.byConstructor, clients, 30),
    byOwner: difference(before.byOwner, after.byOwner, clients, 24),
  };
}
