import { execFile } from "node:child_process";

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
 * the server) and only https remotes (plus http when `allowHttp`, for the test server). Extra
 * configuration (a token's header) travels in the environment, never in the arguments.
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
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...safety, ...args],
      {
        cwd: dir,
        timeout: options.timeoutMs ?? GIT_TIMEOUT_MS,
        maxBuffer: 32 * 1024 * 1024,
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
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, stderr });
        const code = (error as NodeJS.ErrnoException & { code?: number | string }).code ?? null;
        reject(new GitCommandError(args, error.killed ? "timeout" : code, stderr, stdout));
      },
    );
  });
}
