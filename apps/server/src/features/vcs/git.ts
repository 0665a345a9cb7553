import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A git command that failed: its exit code and what it printed on stderr. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string | null,
    readonly stderr: string,
    readonly stdout = "",
  ) {
    super(`git ${args[0] ?? ""} failed: ${stderr.trim() || `exit ${code}`}`);
  }
}

export interface GitResult {
  stdout: string;
  stderr: string;
}

/** How long one git command may take before it is killed. */
const GIT_TIMEOUT_MS = 20_000;

/**
 * Runs the system git in `dir`, never through a shell, never waiting for a prompt, with the
 * repository's hooks and fsmonitor switched off (a file a participant wrote can never run on
 * the server), literal pathspecs, and only https remotes (plus http when `allowHttp`, for the
 * test server). Extra configuration (a token's header) travels in the environment, never in
 * the arguments. git starts from a small helper process (gitProcess.js), not the server's.
 */
export function runGit(
  dir: string,
  args: readonly string[],
  options: { env?: Record<string, string>; allowHttp?: boolean; timeoutMs?: number } = {},
): Promise<GitResult> {
  const safety = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.quotePath=false",
  ];
  return helper
    .run({
      args: [...safety, ...args],
      cwd: dir,
      timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: dir,
        LANG: "C.UTF-8",
        GIT_TERMINAL_PROMPT: "0",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        // Paths are names, never patterns or pathspec magic.
        GIT_LITERAL_PATHSPECS: "1",
        GIT_ALLOW_PROTOCOL: options.allowHttp ? "https:http" : "https",
        ...options.env,
      },
    })
    .then((answer) => {
      if (!answer.failure) return { stdout: answer.stdout, stderr: answer.stderr };
      const { code, killed } = answer.failure;
      throw new GitCommandError(args, killed ? "timeout" : code, answer.stderr, answer.stdout);
    });
}

interface GitRequest {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
}

interface GitAnswer {
  stdout: string;
  stderr: string;
  failure: { code: number | string | null; killed: boolean; message: string } | null;
}

/**
 * The helper process that starts git (gitProcess.js), started on first use and again if it
 * dies; it keeps this process alive only while a command is running.
 */
class GitHelper {
  private process: ChildProcess | undefined;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (answer: GitAnswer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();

  run(request: GitRequest): Promise<GitAnswer> {
    const child = this.ensureStarted();
    const id = ++this.nextId;
    return new Promise<GitAnswer>((resolve, reject) => {
      // git is killed at its own time limit; this one is for a helper that stopped answering.
      const timer = setTimeout(
        () => this.settle(id, new Error("git did not answer")),
        request.timeoutMs + 5000,
      );
      this.pending.set(id, { resolve, reject, timer });
      child.channel?.ref();
      child.send({ id, ...request }, (error) => {
        if (error) this.settle(id, error);
      });
    });
  }

  private ensureStarted(): ChildProcess {
    if (this.process?.connected) return this.process;
    const started = fork(fileURLToPath(new URL("./gitProcess.js", import.meta.url)), [], {
      execArgv: [],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    started.on("message", (answer: GitAnswer & { id: number }) => this.settle(answer.id, answer));
    // A failed send reports to its own callback; a dead helper is handled on 'exit'.
    started.on("error", () => {});
    started.on("exit", () => {
      if (this.process === started) this.process = undefined;
      for (const id of [...this.pending.keys()]) this.settle(id, new Error("the git helper exited"));
    });
    started.unref();
    started.channel?.unref();
    this.process = started;
    return started;
  }

  private settle(id: number, result: GitAnswer | Error): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (this.pending.size === 0) this.process?.channel?.unref();
    if (result instanceof Error) waiting.reject(result);
    else waiting.resolve(result);
  }
}

const helper = new GitHelper();
