import { type ChildProcess, fork, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/** How a sandbox process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A process the sandbox started: its pid, its three pipes, and its end. */
export interface SandboxProcess {
  pid: number;
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Set once the process exited. */
  readonly exit: Exit | undefined;
  /** Settles once the process exited and its stdout and stderr are closed. */
  closed: Promise<Exit>;
}

/** Starts `file` detached (its own process group) with three pipes and the given environment. */
export type Spawn = (file: string, args: string[], env: NodeJS.ProcessEnv) => Promise<SandboxProcess>;

/**
 * Spawns from this process. Forking copies this process's page tables while its event loop
 * waits: ~2 ms for a small process, 20 ms for the server with its embedded database. Tests
 * and tools use it; the server uses the spawner.
 */
export const spawnHere: Spawn = (file, args, env) =>
  new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"], detached: true, env });
    if (child.pid === undefined) {
      child.once("error", reject);
      return;
    }
    const exited = new Promise<Exit>((settle) =>
      child.on("exit", (code, signal) => settle({ code, signal })),
    );
    resolve(sandboxProcess(child.pid, [child.stdin, child.stdout, child.stderr], exited));
  });

/**
 * A SandboxProcess from its pipes and its exit. At the exit, output nobody reads is drained so
 * the pipes can close (as Node does for its own children), and a pipe still open 1 s later is
 * destroyed: whatever holds it outlived the program (the PID namespace normally kills all of
 * it), and it is a leak, not output.
 */
function sandboxProcess(
  pid: number,
  [stdin, stdout, stderr]: [Writable, Readable, Readable],
  exited: Promise<Exit>,
): SandboxProcess {
  let exit: Exit | undefined;
  void exited.then((end) => {
    exit = end;
    for (const stream of [stdout, stderr]) if (stream.readableFlowing === null) stream.resume();
    setTimeout(() => {
      stdout.destroy();
      stderr.destroy();
    }, 1000).unref();
  });
  const closedStream = (stream: Readable) =>
    stream.closed ? Promise.resolve() : new Promise<void>((resolve) => stream.once("close", () => resolve()));
  return {
    pid,
    stdin,
    stdout,
    stderr,
    get exit() {
      return exit;
    },
    closed: Promise.all([exited, closedStream(stdout), closedStream(stderr)]).then(([end]) => end),
  };
}

/** SIGKILLs a process group (a sandbox's launcher and everything under it). */
export function killGroup(pid: number) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

interface Pending {
  resolve(process: SandboxProcess): void;
  reject(error: Error): void;
  pid?: number;
  stdio: (Writable | Readable | undefined)[];
  onExit?: (exit: Exit) => void;
}

/**
 * A spawner process (spawnerProcess.js) that forks on the server's behalf and hands back the
 * pipes over its IPC channel, so the server's event loop never blocks in fork(). The server
 * still signals the processes by pid. If the spawner dies, the next spawn starts a new one.
 */
export function createSpawner(): { spawn: Spawn; close(): Promise<void> } {
  let helper: ChildProcess | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  function start(): ChildProcess {
    const started = fork(fileURLToPath(new URL("./spawnerProcess.js", import.meta.url)), [], {
      execArgv: [],
      env: { PATH: "/usr/bin:/bin" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    started.on("message", (message: SpawnerMessage, handle?: unknown) => {
      onMessage(message, handle);
      holdWhilePending();
    });
    // An unhandled 'error' would take the server down; sends report failures to their callback
    // and a dead spawner is handled on 'exit'.
    started.on("error", () => {});
    // Like a child of our own, the spawner keeps this process alive only while something it
    // spawned is still running (see holdWhilePending); when the server exits, the spawner sees
    // its channel close.
    started.unref();
    started.channel?.unref();
    started.on("exit", () => {
      if (helper === started) helper = undefined;
      // Its children can no longer be waited for: they are killed and counted as such.
      for (const [id, waiting] of pending) {
        waiting.reject(new Error("the sandbox spawner exited"));
        if (waiting.pid !== undefined) killGroup(waiting.pid);
        waiting.onExit?.({ code: null, signal: "SIGKILL" });
        pending.delete(id);
      }
    });
    return started;
  }

  /** References the channel while a spawn is answered or a spawned process has not exited. */
  function holdWhilePending() {
    if (pending.size > 0) helper?.channel?.ref();
    else helper?.channel?.unref();
  }

  function onMessage(message: SpawnerMessage, handle: unknown) {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    switch (message.type) {
      case "failed":
        pending.delete(message.id);
        waiting.reject(new Error(message.message));
        return;
      case "spawned":
        waiting.pid = message.pid;
        return;
      case "stdio":
        // Node hands a pipe over only while it is open: a process that ended at once loses them.
        if (!handle) return;
        waiting.stdio[message.fd] = handle as Writable | Readable;
        if (waiting.stdio.filter(Boolean).length === 3 && waiting.pid !== undefined) {
          waiting.resolve(wrap(waiting));
        }
        return;
      case "exit":
        pending.delete(message.id);
        if (waiting.onExit) waiting.onExit({ code: message.code, signal: message.signal });
        else waiting.reject(new Error(`exited at once (${message.code ?? message.signal})`));
        return;
    }
  }

  function wrap(waiting: Pending): SandboxProcess {
    const exited = new Promise<Exit>((resolve) => {
      waiting.onExit = resolve;
    });
    return sandboxProcess(waiting.pid as number, waiting.stdio as [Writable, Readable, Readable], exited);
  }

  return {
    spawn(file, args, env) {
      helper ??= start();
      const id = ++nextId;
      const sent = helper;
      const answer = new Promise<SandboxProcess>((resolve, reject) => {
        pending.set(id, { resolve, reject, stdio: [] });
        sent.send({ type: "spawn", id, file, args, env }, (error) => {
          if (!error) return;
          pending.delete(id);
          holdWhilePending();
          reject(error);
        });
      });
      holdWhilePending();
      return answer;
    },
    async close() {
      const running = helper;
      helper = undefined;
      if (!running || running.exitCode !== null) return;
      const gone = new Promise((resolve) => running.once("exit", resolve));
      running.ref();
      running.disconnect();
      await gone;
    },
  };
}

type SpawnerMessage =
  | { type: "spawned"; id: number; pid: number }
  | { type: "stdio"; id: number; fd: 0 | 1 | 2 }
  | { type: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { type: "failed"; id: number; message: string };
