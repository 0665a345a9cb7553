import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { linkNodeModules } from "../lib/nodeModules";

const root = path.resolve(import.meta.dirname, "../..");

/** What a snapshot holds of the repository: the server, its packages and its build script. */
const MEASURED = ["apps/server", "packages", "scripts/build-server.mjs", "tsconfig.base.json"];

export interface Snapshot {
  /** Where the bench should run from: the exported server, built, with this harness copied in. */
  dir: string;
  commit: string;
  /** What the results name as the server measured: the commit, or the working tree on a commit. */
  label: string;
  /** Whether the working tree differed from the commit in the files measured. */
  isDirty: boolean;
}

/**
 * Exports our server and its packages at `ref` into a temporary directory and builds the
 * production bundle there (`node scripts/build-server.mjs`: `apps/server/dist/main.js`), so a
 * benchmark measures one commit, as an operator runs it, while others keep editing the working
 * tree (the cold-load step restarts the server). `ref` "worktree" takes the files on disk
 * instead, without the ignored ones. The harness itself is copied from the working tree;
 * node_modules are shared through symlinks, except the workspace packages, which point at the
 * exported copies.
 */
export function exportSnapshot(ref: string): Snapshot {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  const isWorktree = ref === "worktree";
  const commit = git("rev-parse", isWorktree ? "HEAD" : ref);
  const isDirty = git("status", "--porcelain", "--", ...MEASURED) !== "";
  const dir = path.join(tmpdir(), `ensemble-bench-${commit.slice(0, 12)}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  if (isWorktree) {
    const files = git("ls-files", "--cached", "--others", "--exclude-standard", "--", ...MEASURED)
      .split("\n")
      .filter((file) => file && existsSync(path.join(root, file)));
    for (const file of files) cpSync(path.join(root, file), path.join(dir, file));
  } else {
    execFileSync("sh", ["-c", `git archive ${commit} ${MEASURED.join(" ")} | tar -x -C "${dir}"`], {
      cwd: root,
    });
  }
  if (!existsSync(path.join(dir, "scripts/build-server.mjs")))
    throw new Error(`${ref} has no scripts/build-server.mjs: it predates the production bundle`);
  cpSync(path.join(root, "bench"), path.join(dir, "bench"), {
    recursive: true,
    filter: (source) => !source.includes("node_modules") && !source.includes(".compiled"),
  });
  linkNodeModules(dir);
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: dir, stdio: "inherit" });
  const label = isWorktree ? `working tree on ${commit}${isDirty ? " (with changes)" : ""}` : commit;
  return { dir, commit, label, isDirty };
}

/**
 * Unless this process already runs inside a snapshot, exports `BENCH_REF` (HEAD by default)
 * with `exportSnapshot`, runs `script` (a path below `bench/`) from there with `BENCH_SNAPSHOT`
 * naming what is measured and results going to `outDir`, removes the snapshot and exits with
 * the script's status. Inside a snapshot it returns at once.
 */
export function rerunInSnapshot(script: string, outDir: string): void {
  const env = process.env;
  if (env.BENCH_SNAPSHOT) return;
  const snapshot = exportSnapshot(env.BENCH_REF ?? "HEAD");
  console.log(
    `measuring ${snapshot.label}${snapshot.isDirty && env.BENCH_REF !== "worktree" ? " (working tree differs; not measured)" : ""} from ${snapshot.dir}`,
  );
  const child = spawnSync(process.execPath, ["--import", "tsx", path.join(snapshot.dir, "bench", script)], {
    cwd: snapshot.dir,
    stdio: "inherit",
    env: { ...env, BENCH_SNAPSHOT: snapshot.label, BENCH_OUT: outDir },
  });
  // The symlinks go, not what they point at.
  rmSync(snapshot.dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}
