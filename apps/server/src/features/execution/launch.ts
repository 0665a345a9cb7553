import { randomBytes } from "node:crypto";
import { runFileNameProblem } from "@ensemble/protocol";
import type { RunCgroup } from "./cgroups";
import type { LiveIo } from "./liveIo";
import type { LocalRuntime } from "./runtimes";
import { type Artifact, compileThenRun } from "./stages";

// What one run is and how it is launched: the job, the slot it runs in, and the plan
// launcher.py receives (bwrap's argv, the files, the rlimits). sandbox.ts runs the plan.

/** The host tools of the launch chain and the limits every run gets. */
export interface SandboxConfig {
  /**
   * `python` runs launcher.py on the host; `bwrap` is what the launcher execs; `prlimit`
   * (util-linux) holds a run's processes inside its user namespace when the server is not root.
   */
  tools: { python: string; bwrap: string; prlimit: string };
  tmpfsBytes: number;
  shmBytes: number;
  maxProcesses: number;
  maxOpenFiles: number;
  maxFileSizeBytes: number;
  outputMaxBytes: number;
  /** Niceness of every run, so the server's own loop wins the CPU. */
  nice: number;
}

/**
 * A file the sandbox gets besides the user's, the same way as theirs. `setup` sets Node's
 * stdout and stderr blocking, as they are on a terminal: into a pipe, Node queues writes in
 * memory, so `while (true) console.log(x)` would print nothing and grow until killed instead of
 * hitting the output cap.
 */
export interface ExtraFile {
  path: string;
  content: Buffer;
  /** Its permission bits in the sandbox; read-only (0444) when absent. */
  mode?: number;
}

export const NODE_STDIO_PRELOAD: ExtraFile = {
  path: "/.ensemble/stdio.cjs",
  content: Buffer.from(
    'for (const s of [process.stdout, process.stderr]) if (typeof s._handle?.setBlocking === "function") s._handle.setBlocking(true);\n',
  ),
};

/** One run: what to execute, with which limits. */
export interface SandboxJob {
  runtime: LocalRuntime;
  /**
   * The first file runs. A name is a path under the work folder (`src/lib/util.js`); bwrap
   * creates its folders. Each file reaches bwrap as a memory file, never written on the host.
   */
  files: { name: string; content: Buffer }[];
  /** Files outside the work folder that the runtime needs (see ExtraFile). */
  extraFiles?: ExtraFile[];
  args: string[];
  stdin: string;
  timeoutMs: number;
  cpuTimeMs: number;
  memoryBytes: number;
  /**
   * The compile stage's limits; required when the runtime compiles. With `exportMaxBytes`, a
   * successful compile's files in `{out}` come back in the result (for the run cache).
   */
  compile?: (StageLimits & { exportMaxBytes?: number | undefined }) | undefined;
  /** A compile's files from an earlier run of the same sources: the compile is skipped. */
  artifacts?: Artifact[] | undefined;
  signal?: AbortSignal | undefined;
  /** A live run: output reported as it comes, stdin left open for `io` (`stdin` is then unused), signals. */
  io?: LiveIo | undefined;
  /**
   * The output is shown by a terminal emulator (the shared terminal): the program is told it
   * may use colours (TERM, FORCE_COLOR), which a Piston client reading plain text is not.
   */
  colour?: boolean | undefined;
}

/** One stage's limits (Piston's timeout, CPU time and memory limit). */
export interface StageLimits {
  timeoutMs: number;
  cpuTimeMs: number;
  memoryBytes: number;
}

/** What a queue slot runs as: its unprivileged host uid (undefined when the server is not root) and its cgroup. */
export interface SandboxSlot {
  uid: number | undefined;
  cgroup: RunCgroup | undefined;
}

/** What launcher.py reads on stdin: everything about the run, as JSON. */
export interface LaunchPlan {
  /** bwrap's argv, up to the interpreter, the entry file's path and the program's args. */
  argv: string[];
  /** Base64 contents for fds 3, 4, ... in the order of the `--file` arguments. */
  files: string[];
  /** Base64 stdin, or null for a live run: the launcher's own stdin stays the program's. */
  stdin: string | null;
  /** [RLIMIT_ name without the prefix, soft, hard] */
  rlimits: [string, number, number][];
  uid: number | null;
  /** A compiled run's marker nonce (see stages.ts); not sent to the launcher. */
  nonce?: string;
}

const WORK_DIR = "/box";
/** `{out}`: where a compile writes what its run needs, inside the run's private /tmp. */
const OUT_DIR = "/tmp/out";
const FIRST_FILE_FD = 3;

/**
 * The launch of one run: launcher.py sets the rlimits and drops to the slot's uid, then
 * execs bwrap, which builds the namespaces and the read-only filesystem and runs the
 * interpreter. The launcher `exec`s, so the pid the server holds is bwrap's in the end, and
 * killing its process group tears the whole sandbox down.
 */
export function buildLaunch(config: SandboxConfig, job: SandboxJob, slot: SandboxSlot): LaunchPlan {
  // The service checked the names already; this is the last line before bwrap's argv.
  for (const { name } of job.files) {
    const problem = runFileNameProblem(name);
    if (problem) throw new Error(`refusing a file name that ${problem}: ${JSON.stringify(name)}`);
  }
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  // The launch's CPU bound covers the longer stage; a compiled run's shell sets each stage's own.
  const cpuSeconds = seconds(Math.max(job.cpuTimeMs, job.compile?.cpuTimeMs ?? 0));
  // The launch holds one descriptor per file until bwrap has copied it in (then closes it), so
  // a project of many files needs that many more; the program's own budget stays maxOpenFiles.
  const openFiles = config.maxOpenFiles + allFiles(job).length;
  // A record may need more for its runtime (Erlang's JIT maps its code through a memory file).
  const fileSize = Math.max(config.maxFileSizeBytes, job.runtime.limits.fileSizeBytes ?? 0);
  const rlimits: [string, number, number][] = [
    ["NOFILE", openFiles, openFiles],
    ["FSIZE", fileSize, fileSize],
    ["CORE", 0, 0],
    ["CPU", cpuSeconds, cpuSeconds + 1],
  ];
  // RLIMIT_NPROC counts per real uid, so on the host it is only meaningful with a uid of the
  // slot's own; without one it is set inside the sandbox instead (see processBound).
  if (slot.uid !== undefined) rlimits.push(["NPROC", config.maxProcesses, config.maxProcesses]);
  // Without a memory cgroup, address space is the only (per-process) memory bound left.
  if (!slot.cgroup) {
    const bytes = Math.max(1024 ** 3, job.memoryBytes * 4);
    rlimits.push(["AS", bytes, bytes]);
  }
  const run = [...expandCommand(job.runtime.run, job), ...job.args];
  const compile = job.artifacts ? undefined : job.runtime.compile;
  const nonce = compile ? randomBytes(12).toString("hex") : undefined;
  const program =
    compile && nonce
      ? [
          "/bin/sh",
          "-c",
          compileThenRun({
            nonce,
            compile: [
              ...expandCommand(compile, job),
              ...(job.colour ? (job.runtime.compileColour ?? []) : []),
            ],
            run,
            compileCpuSeconds: seconds(job.compile?.cpuTimeMs ?? job.cpuTimeMs),
            runCpuSeconds: seconds(job.cpuTimeMs),
            exportMaxFileBytes: job.compile?.exportMaxBytes,
          }),
        ]
      : run;
  const argv = [
    config.tools.bwrap,
    ...bwrapArgs(config, job),
    ...(slot.uid === undefined ? processBound(config) : []),
    ...program,
  ];
  return {
    argv,
    files: allFiles(job).map((f) => f.content.toString("base64")),
    stdin: job.io ? null : Buffer.from(job.stdin).toString("base64"),
    rlimits,
    uid: slot.uid ?? null,
    ...(nonce ? { nonce } : {}),
  };
}

/**
 * A command's argv for this run, its placeholders filled in (see the language record's
 * LanguageCommand): `{sources}` alone becomes one argument per source of the entry's folder.
 */
export function expandCommand(template: readonly string[], job: SandboxJob): string[] {
  const entry = job.files[0]?.name ?? job.runtime.defaultFile;
  const slash = entry.lastIndexOf("/");
  const folder = slash < 0 ? "" : entry.slice(0, slash);
  const base = entry.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const values: Record<string, string> = {
    file: `${WORK_DIR}/${entry}`,
    stem: dot > 0 ? base.slice(0, dot) : base,
    dir: folder ? `${WORK_DIR}/${folder}` : WORK_DIR,
    out: OUT_DIR,
  };
  const fill = (arg: string) =>
    arg.replace(/\{(file|stem|dir|out)\}/g, (_, name: string) => values[name] ?? "");
  return template.flatMap((arg) => (arg === "{sources}" ? sourcesOf(job, entry, folder) : [fill(arg)]));
}

/** The entry, then every other file of its folder (and below) with a source extension, by path. */
function sourcesOf(job: SandboxJob, entry: string, folder: string): string[] {
  const extensions = new Set(job.runtime.extensions);
  const others = job.files
    .map((f) => f.name)
    .filter((name) => name !== entry && (folder === "" || name.startsWith(`${folder}/`)))
    .filter((name) => extensions.has(name.slice(name.lastIndexOf(".") + 1).toLowerCase()))
    .sort();
  return [entry, ...others].map((name) => `${WORK_DIR}/${name}`);
}

/**
 * A run that shares the server's uid is held to `maxProcesses` by prlimit inside bwrap. The
 * kernel counts RLIMIT_NPROC per user namespace as well as per uid (ucounts): a limit set
 * after bwrap created the run's namespace counts only the tasks in it, so the server's own
 * threads and other runs never eat into a run's allowance, and a run cannot exceed it. With
 * N runs at once the uid holds at most what the server runs plus N × maxProcesses.
 */
function processBound(config: SandboxConfig): string[] {
  return [config.tools.prlimit, `--nproc=${config.maxProcesses}:${config.maxProcesses}`, "--"];
}

function bwrapArgs(config: SandboxConfig, job: SandboxJob): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "sandbox",
    "--clearenv",
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "HOME",
    "/tmp",
    "--setenv",
    "LANG",
    "C.UTF-8",
    ...(job.colour ? ["--setenv", "TERM", "xterm-256color", "--setenv", "FORCE_COLOR", "1"] : []),
    ...Object.entries(job.runtime.env).flatMap(([name, value]) => [
      "--setenv",
      name,
      expandCommand([value], job)[0] ?? "",
    ]),
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--ro-bind-try",
    "/etc/ld.so.cache",
    "/etc/ld.so.cache",
    // Debian keeps some of a toolchain outside /usr (the JDK's and Mono's configuration): only
    // the folders its record names, read-only.
    ...(job.runtime.systemPaths ?? []).flatMap((p) => ["--ro-bind-try", p, p]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(config.shmBytes),
    "--tmpfs",
    "/dev/shm",
    "--size",
    String(config.tmpfsBytes),
    "--tmpfs",
    "/tmp",
    ...(job.runtime.compile ? ["--dir", OUT_DIR] : []),
    "--size",
    String(config.tmpfsBytes),
    "--tmpfs",
    WORK_DIR,
  ];
  allFiles(job).forEach((file, i) => {
    const mode = (file.mode ?? 0o444).toString(8).padStart(4, "0");
    args.push("--perms", mode, "--file", String(FIRST_FILE_FD + i), file.path);
  });
  // Last: the bwrap root and /dev are writable tmpfs until remounted read-only.
  args.push("--remount-ro", "/dev", "--remount-ro", "/", "--chdir", WORK_DIR);
  return args;
}

function allFiles(job: SandboxJob): ExtraFile[] {
  return [
    ...job.files.map((f) => ({ path: `${WORK_DIR}/${f.name}`, content: f.content })),
    ...(job.extraFiles ?? []),
    // Owner bits only: the program runs as the file's owner inside the sandbox.
    ...(job.artifacts ?? []).map((a) => ({
      path: `${OUT_DIR}/${a.path}`,
      content: a.content,
      mode: a.mode & 0o700,
    })),
  ];
}
