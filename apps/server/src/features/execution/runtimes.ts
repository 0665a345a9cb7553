import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import {
  isLanguage,
  LANGUAGE_RECORDS,
  type Language,
  type LanguageRecord,
  type Runtime,
} from "@ensemble/protocol";
import { rcompare, satisfies } from "semver";
import { jvmFiles } from "./jvm";
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
  /** The record's environment, set in the sandbox besides PATH, HOME and LANG. */
  env: Record<string, string>;
  /** The record's own RLIMIT_FSIZE, when the server's is too small for the runtime (see LanguageLimits). */
  maxFileSizeBytes?: number;
  /** Files the runtime needs in the sandbox besides the user's. */
  extraFiles: ExtraFile[];
}

/**
 * What the server adds to a language's record: files the sandbox needs, flags before the file;
 * `jvm`: the run is a JVM's, which needs its security file (see jvmFiles).
 */
const SERVER_EXTRAS: Readonly<Record<string, { flags?: string[]; extraFiles?: ExtraFile[]; jvm?: true }>> = {
  // No V8 flag such as --max-old-space-size: with any, Node's start with a preload took
  // 6 ms longer here (36 ms instead of 30); a heap bomb meets the memory cgroup instead.
  javascript: { flags: ["--require", NODE_STDIO_PRELOAD.path], extraFiles: [NODE_STDIO_PRELOAD] },
  clojure: { jvm: true },
};

/**
 * The sandbox runs `binary flags… file args…`: the flags are the record's run arguments before
 * `{file}`. A record with a compile stage, or one whose run does not end with `{file}`, waits for
 * the compile stage (issue 29) and is not offered yet.
 */
function interpreterFlags(record: LanguageRecord): string[] | undefined {
  const args = record.run.args;
  if (record.compile || args.at(-1) !== "{file}" || args.indexOf("{file}") !== args.length - 1)
    return undefined;
  if (args.some((a) => a.includes("{stem}"))) return undefined;
  return [...(SERVER_EXTRAS[record.id]?.flags ?? []), ...args.slice(0, -1)];
}

/** One record's detection: its runtime, or why it is not offered. */
type Detected = { runtime: LocalRuntime } | { problem: string };

/**
 * Finds each language's command on PATH (the first whose real path is under /usr) and reads its
 * version as its record says. A missing toolchain is simply absent from the list; `problems` says why.
 * The version commands run at once (a JVM or BEAM start takes a second; thirty in a row would
 * hold the server's start), and the list keeps the records' order.
 */
export async function detectRuntimes(
  searchPath = process.env.PATH ?? "/usr/bin:/bin",
  records: readonly LanguageRecord[] = LANGUAGE_RECORDS,
): Promise<{ runtimes: LocalRuntime[]; problems: string[] }> {
  const detected = await Promise.all(records.map((record) => detectRuntime(record, searchPath)));
  return {
    runtimes: detected.flatMap((d) => ("runtime" in d ? [d.runtime] : [])),
    problems: detected.flatMap((d) => ("problem" in d ? [d.problem] : [])),
  };
}

async function detectRuntime(record: LanguageRecord, searchPath: string): Promise<Detected> {
  if (!isLanguage(record.id)) return { problem: `${record.id}: not a language of LANGUAGE_RECORDS` };
  const flags = interpreterFlags(record);
  if (!flags) return { problem: `${record.id}: compiled languages are not run yet` };
  const binary = await findUnderUsr(record.run.command, searchPath);
  if (!binary) return { problem: `${record.run.command} not found under /usr on PATH` };
  const versionBinary =
    record.version.command === record.run.command
      ? binary
      : await findUnderUsr(record.version.command, searchPath);
  try {
    if (!versionBinary) throw new Error(`${record.version.command} not found under /usr on PATH`);
    const out = await run(versionBinary, [...record.version.args]);
    const extras = SERVER_EXTRAS[record.id];
    return {
      runtime: {
        id: record.id,
        language: record.id,
        version: record.version.parse(out),
        aliases: [...record.aliases],
        ...(record.runtime ? { runtime: record.runtime } : {}),
        binary,
        defaultFile: record.mainFile,
        flags,
        env: { ...record.env },
        ...(record.limits?.fileSizeBytes ? { maxFileSizeBytes: record.limits.fileSizeBytes } : {}),
        extraFiles: [...(extras?.extraFiles ?? []), ...(extras?.jvm ? await jvmFiles(binary) : [])],
      },
    };
  } catch (error) {
    return {
      problem: `${versionBinary ?? record.version.command} ${record.version.args.join(" ")} failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
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
