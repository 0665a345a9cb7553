import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? null;
}

/** Every source file of the web app with the files it imports (type-only imports included). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = new Set<string>();
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
      const target = specifier === undefined ? null : resolveImport(file, specifier);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The layer a file belongs to: `features/<name>`, or its top folder (`lib`, `ui`, ...). */
function layerOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts[0] === "features"
    ? `features/${parts[1]}`
    : ((parts.length > 1 ? parts[0] : "root") ?? "root");
}

/** One cycle of the graph as a path that returns to its start, or null when there is none. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe("the web app's imports", () => {
  const files = importGraph();

  it("run between features one way only (no feature reaches back to one that imports it)", () => {
    const layers = new Map<string, Set<string>>();
    for (const [file, targets] of files) {
      const from = layerOf(file);
      const edges = layers.get(from) ?? new Set<string>();
      for (const target of targets) if (layerOf(target) !== from) edges.add(layerOf(target));
      layers.set(from, edges);
    }
    const features = new Map([...layers].filter(([layer]) => layer.startsWith("features/")));
    expect(findCycle(features)).toBeNull();
  });

  it("keep lib and ui free of features", () => {
    const reaching = [...files]
      .filter(
        ([file, targets]) =>
          ["lib", "ui"].includes(layerOf(file)) &&
          [...targets].some((t) => layerOf(t).startsWith("features/")),
      )
      .map(([file]) => relative(SRC, file));
    expect(reaching).toEqual([]);
  });

  it("form no cycle between files", () => {
    const cycle = findCycle(files);
    expect(cycle?.map((file) => relative(SRC, file)) ?? null).toBeNull();
  });
});
