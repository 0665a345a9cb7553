import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface Snapshot {
  /** Where run.ts should run from: a checkout of `ref` with this harness copied in. */
  dir: string;
  commit: string;
  /** Whether the working tree differed from the commit in the files measured. */
  isDirty: boolean;
}

/**
 * Exports our server and its packages at `ref` into a temporary directory, so the benchmark
 * measures one commit while others keep editing the working tree (the cold-load step restarts
 * the server, and tsx would otherwise compile whatever is on disk at that moment). The harness
 * itself is copied from the working tree; node_modules are shared through symlinks, except the
 * workspace packages, which point at the exported copies.
 */
export function exportSnapshot(ref: string): Snapshot {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  const commit = git("rev-parse", ref);
  const measured = ["apps/server", "packages"];
  const isDirty = git("status", "--porcelain", "--", ...measured) !== "";
  const dir = path.join(tmpdir(), `ensemble-bench-${commit.slice(0, 12)}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  execFileSync(
    "sh",
    ["-c", `git archive ${commit} ${measured.join(" ")} tsconfig.base.json | tar -x -C "${dir}"`],
    {
      cwd: root,
    },
  );
  cpSync(path.join(root, "bench"), path.join(dir, "bench"), {
    recursive: true,
    filter: (source) => !source.includes("node_modules"),
  });
  linkNodeModules(dir);
  return { dir, commit, isDirty };
}

function linkNodeModules(dir: string) {
  const shared = path.join(root, "node_modules");
  const own = path.join(dir, "node_modules");
  mkdirSync(path.join(own, "@ensemble"), { recursive: true });
  for (const entry of readdirSync(shared)) {
    if (entry !== "@ensemble") symlinkSync(path.join(shared, entry), path.join(own, entry));
  }
  const workspaces: Record<string, string> = {
    collab: "packages/collab",
    protocol: "packages/protocol",
    server: "apps/server",
    bench: "bench",
  };
  for (const [name, folder] of Object.entries(workspaces)) {
    if (existsSync(path.join(dir, folder)))
      symlinkSync(path.join(dir, folder), path.join(own, "@ensemble", name));
  }
}
