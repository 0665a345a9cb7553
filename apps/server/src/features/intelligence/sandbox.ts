import fs from "node:fs/promises";
import os from "node:os";
import { LAUNCHER, type RunCgroup, type SandboxProcess, type Spawn } from "../execution/index";
import type { LanguageServerRecord } from "./servers";

// How a shared language server is launched: the execution feature's launcher (rlimits, the
// slot's uid, then exec bwrap) with a plan of our own. The program never exits by itself, so
// its stdin and stdout stay open as the LSP pipes.

/** The host tools of the launch chain (as the execution feature found them). */
export interface ServerTools {
  python: string;
  bwrap: string;
  prlimit: string;
}

/** Where one server runs: its slot's uid (root only) and control group, and its limits. */
export interface ServerSlot {
  uid: number | undefined;
  cgroup: RunCgroup | undefined;
  memoryBytes: number;
  /** Niceness, above the runs' own: a Run wins the CPU over a language server. */
  nice: number;
}

/** The folder the server sees the workspace in, read-only (the host folder is bound there). */
export const SERVER_ROOT = "/box";

const TMPFS_BYTES = 32 * 1024 * 1024;

/**
 * bwrap's argv for the server: nothing shared with the host but read-only /usr and the
 * session's folder (read-only: only our server writes the files); no network, no other
 * process, a private /tmp. A binary outside /usr (a setting pointing elsewhere) is bound
 * read-only at its own path.
 */
export function serverArgv(
  tools: ServerTools,
  record: LanguageServerRecord,
  binary: string,
  hostDir: string,
  slot: ServerSlot,
): string[] {
  const args = [
    tools.bwrap,
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
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--size",
    String(TMPFS_BYTES),
    "--tmpfs",
    "/tmp",
    "--ro-bind",
    hostDir,
    SERVER_ROOT,
    ...(binary.startsWith("/usr/") ? [] : ["--ro-bind", binary, binary]),
    "--remount-ro",
    "/",
    "--chdir",
    SERVER_ROOT,
  ];
  // Sharing the server's uid, the server's processes are bounded inside its own user namespace
  // (see the execution feature's processBound).
  if (slot.uid === undefined)
    args.push(tools.prlimit, `--nproc=${record.maxProcesses}:${record.maxProcesses}`, "--");
  return [...args, binary, ...record.args];
}

/** The launcher's rlimits for a server: no core files, bounded files, memory by cgroup or address space. */
function serverRlimits(record: LanguageServerRecord, slot: ServerSlot): [string, number, number][] {
  const rlimits: [string, number, number][] = [
    ["NOFILE", 1024, 1024],
    ["CORE", 0, 0],
    ["FSIZE", TMPFS_BYTES, TMPFS_BYTES],
  ];
  if (slot.uid !== undefined) rlimits.push(["NPROC", record.maxProcesses, record.maxProcesses]);
  if (!slot.cgroup) {
    const bytes = Math.max(1024 ** 3, slot.memoryBytes * 4);
    rlimits.push(["AS", bytes, bytes]);
  }
  return rlimits;
}

/**
 * Starts the server in its sandbox: the launcher joins the slot's cgroup before it execs, so
 * the server is born inside its limits. Resolves with the process, whose stdin and stdout are
 * the LSP pipes; rejects when the launcher could not be started or placed.
 */
export async function launchServer(
  spawn: Spawn,
  tools: ServerTools,
  record: LanguageServerRecord,
  binary: string,
  hostDir: string,
  slot: ServerSlot,
): Promise<SandboxProcess> {
  const child = await spawn(tools.python, ["-I", "-S", "-B", LAUNCHER], {
    PATH: "/usr/bin:/bin",
    LANG: "C.UTF-8",
  });
  // A launcher or server that exits makes our writes fail with EPIPE: reported on exit instead.
  child.stdin.on("error", () => {});
  try {
    if (slot.nice > 0) os.setPriority(child.pid, slot.nice);
    for (const file of slot.cgroup?.procsFiles ?? []) await fs.writeFile(file, String(child.pid));
    if (child.exit !== undefined) throw new Error("the sandbox launcher exited before its plan");
  } catch (error) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    throw error;
  }
  const plan = JSON.stringify({
    argv: serverArgv(tools, record, binary, hostDir, slot),
    files: [],
    // Null: the launcher's stdin stays the program's (the LSP requests follow the plan).
    stdin: null,
    rlimits: serverRlimits(record, slot),
    uid: slot.uid ?? null,
  });
  child.stdin.write(`${Buffer.byteLength(plan)}\n${plan}`);
  return child;
}
