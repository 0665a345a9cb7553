import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import type { Language, Runtime } from "@ensemble/protocol";
import { rcompare, satisfies } from "semver";
import { type ExtraFile, NODE_STDIO_PRELOAD } from "./sandbox";

/** An interpreter the sandbox can run: its real path lives under /usr, the only tree bound in. */
export interface LocalRuntime extends Runtime {
  id: Language;
  /** Absolute real path of the interpreter. */
  binary: string;
  /** Default name of the first file when the request gives none. */
  defaultFile: string;
  /** argv after the binary, before the file name. */
  flags: string[];
  /** Files the runtime needs in the sandbox besides the user's. */
  extraFiles: ExtraFile[];
}

const SPECS = [
  {
    id: "javascript" as const,
    command: "node",
    aliases: ["js", "node-js", "node-javascript", "javascript", "node"],
    runtime: "node",
    defaultFile: "main.js",
    // No V8 flag such as --max-old-space-size: with any, Node's start with a preload took
    // 6 ms longer here (36 ms instead of 30); a heap bomb meets the memory cgroup instead.
    flags: ["--require", NODE_STDIO_PRELOAD.path],
    extraFiles: [NODE_STDIO_PRELOAD],
    parse: (out: string) => out.trim().replace(/^v/, ""),
  },
  {
    id: "python" as const,
    command: "python3",
    aliases: ["py", "py3", "python3", "python"],
    runtime: undefined,
    defaultFile: "main.py",
    // -E -s: no PYTHON* variables, no user site; -u: unbuffered so output interleaves truly;
    // -B: no .pyc writes. Not -I: the script's folder stays on sys.path for multi-file runs.
    flags: ["-E", "-s", "-u", "-B"],
    extraFiles: [],
    parse: (out: string) => out.trim().replace(/^Python\s+/, ""),
  },
];

/**
 * Finds node and python3 on PATH (the first whose real path is under /usr) and reads their
 * versions. A missing interpreter is simply absent from the list; `problems` says why.
 */
export async function detectRuntimes(
  searchPath = process.env.PATH ?? "/usr/bin:/bin",
): Promise<{ runtimes: LocalRuntime[]; problems: string[] }> {
  const runtimes: LocalRuntime[] = [];
  const problems: string[] = [];
  for (const spec of SPECS) {
    const binary = await findUnderUsr(spec.command, searchPath);
    if (!binary) {
      problems.push(`${spec.command} not found under /usr on PATH`);
      continue;
    }
    try {
      const out = await run(binary, ["--version"]);
      runtimes.push({
        id: spec.id,
        language: spec.id,
        version: spec.parse(out),
        aliases: spec.aliases,
        ...(spec.runtime ? { runtime: spec.runtime } : {}),
        binary,
        defaultFile: spec.defaultFile,
        flags: spec.flags,
        extraFiles: spec.extraFiles,
      });
    } catch (error) {
      problems.push(`${binary} --version failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { runtimes, problems };
}

/**
 * Piston's rule, with the same `semver` calls Piston makes: the highest runtime whose language
 * or alias is `language` and whose version satisfies the SemVer range `version` (`*`, `18.x`,
 * `3.10.0`, `^3.10`, `>=3.8 <4`, `2.x || 3.x`); undefined when none does or the range is not one.
 */
export function matchRuntime<R extends Runtime>(
  runtimes: R[],
  language: string,
  version: string,
): R | undefined {
  const name = language.toLowerCase();
  return runtimes
    .filter((r) => (r.language === name || r.aliases.includes(name)) && satisfies(r.version, version))
    .sort((a, b) => rcompare(a.version, b.version))[0];
}

/** The real path of `command` on the search path when it lives under /usr, the only host tree the sandbox binds. */
export async function findUnderUsr(command: string, searchPath: string): Promise<string | undefined> {
  const candidates = [...searchPath.split(":").filter(Boolean), "/usr/local/bin", "/usr/bin"];
  for (const dir of candidates) {
    const real = await fs.realpath(path.join(dir, command)).catch(() => undefined);
    if (real?.startsWith("/usr/")) return real;
  }
  return undefined;
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // stdout and stderr: Python 2 printed its version on stderr.
    execFile(file, args, { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (error, stdout, stderr) =>
      error ? reject(error) : resolve(`${stdout}${stderr}`),
    );
  });
}
