import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import {
  isLanguage,
  LANGUAGE_RECORDS,
  type Language,
  type LanguageLimits,
  type LanguageRecord,
  type Runtime,
} from "@ensemble/protocol";
import { rcompare, satisfies } from "semver";
import { jvmFiles } from "./jvm";
import { type ExtraFile, NODE_STDIO_PRELOAD } from "./launch";
import { rFiles } from "./rlang";

/**
 * A language the sandbox can run, from its record with every command found under /usr (the
 * only host tree bound in). Commands are argv templates with the record's placeholders
 * (`{file}`, `{sources}`, `{out}`, ...), expanded per run by the sandbox.
 */
export interface LocalRuntime extends Runtime {
  id: Language;
  /** Default name of the first file when the request gives none. */
  defaultFile: string;
  /** The language's source extensions, for `{sources}`. */
  extensions: readonly string[];
  /** The compile stage's argv, absent for an interpreted language. */
  compile?: string[];
  /** Appended to the compile's argv when the job asks for colour (LanguageCommand.colourArgs). */
  compileColour?: readonly string[];
  /** The run stage's argv; the program's own arguments follow. */
  run: string[];
  /** Environment of both stages besides the sandbox's own. */
  env: Readonly<Record<string, string>>;
  /** Files the runtime needs in the sandbox besides the user's. */
  extraFiles: ExtraFile[];
  /** The record's defaults where they differ from the server's. */
  limits: LanguageLimits;
  /** The record's folders outside /usr that the sandbox binds read-only (see LanguageRecord). */
  systemPaths?: readonly string[];
}

/** What the server adds to a language's record for the sandbox. */
interface ServerExtras {
  /** Flags before the record's own run arguments. */
  flags?: string[];
  /** Files the run needs besides the user's. */
  extraFiles?: ExtraFile[];
  /** Files made at start for the toolchain found here, from the run command's real path. */
  toolchainFiles?: (command: string) => Promise<ExtraFile[]>;
}

const SERVER_EXTRAS: Readonly<Record<string, ServerExtras>> = {
  // No V8 flag such as --max-old-space-size: with any, Node's start with a preload took
  // 6 ms longer here (36 ms instead of 30); a heap bomb meets the memory cgroup instead.
  javascript: { flags: ["--require", NODE_STDIO_PRELOAD.path], extraFiles: [NODE_STDIO_PRELOAD] },
  // TypeScript runs on the same Node once esbuild has stripped its types.
  typescript: { flags: ["--require", NODE_STDIO_PRELOAD.path], extraFiles: [NODE_STDIO_PRELOAD] },
  // What Debian keeps in /etc for them (see jvm.ts, rlang.ts).
  clojure: { toolchainFiles: jvmFiles },
  rscript: { toolchainFiles: () => rFiles() },
};

/**
 * Finds each language's commands on PATH (the first whose real path is under /usr) and reads
 * its version as its record says, all languages at once. A missing toolchain is simply absent
 * from the list; `problems` says why.
 */
export async function detectRuntimes(
  searchPath = process.env.PATH ?? "/usr/bin:/bin",
  records: readonly LanguageRecord[] = LANGUAGE_RECORDS,
): Promise<{ runtimes: LocalRuntime[]; problems: string[] }> {
  const found = await Promise.all(records.map((record) => detectRuntime(record, searchPath)));
  return {
    runtimes: found.flatMap((f) => (typeof f === "string" ? [] : [f])),
    problems: found.flatMap((f) => (typeof f === "string" ? [f] : [])),
  };
}

/** One record's runtime, or why it cannot run here. */
async function detectRuntime(record: LanguageRecord, searchPath: string): Promise<LocalRuntime | string> {
  if (!isLanguage(record.id)) return `${record.id}: not a language of LANGUAGE_RECORDS`;
  const resolve = async (command: string) =>
    // A compiled program's path ({out}/main) exists only inside a run.
    command.includes("{") ? command : findUnderUsr(command, searchPath);
  const [compile, run, version] = await Promise.all([
    record.compile ? resolve(record.compile.command) : undefined,
    resolve(record.run.command),
    resolve(record.version.command),
  ]);
  const missing = [
    record.compile && !compile ? record.compile.command : undefined,
    run ? undefined : record.run.command,
    version ? undefined : record.version.command,
  ].filter((c) => c !== undefined);
  if (missing.length > 0 || !run || !version)
    return `${record.id}: ${[...new Set(missing)].join(", ")} not found under /usr on PATH`;
  let versionText: string;
  try {
    versionText = record.version.parse(await runCommand(version, [...record.version.args]));
  } catch (error) {
    return `${record.id}: ${version} ${record.version.args.join(" ")} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const extras = SERVER_EXTRAS[record.id];
  return {
    id: record.id,
    language: record.id,
    version: versionText,
    aliases: [...record.aliases],
    ...(record.runtime ? { runtime: record.runtime } : {}),
    defaultFile: record.mainFile,
    extensions: record.sourceExtensions ?? record.extensions,
    ...(record.compile && compile ? { compile: [compile, ...record.compile.args] } : {}),
    ...(record.compile?.colourArgs ? { compileColour: record.compile.colourArgs } : {}),
    run: [run, ...(extras?.flags ?? []), ...record.run.args],
    env: record.env ?? {},
    extraFiles: [...(extras?.extraFiles ?? []), ...((await extras?.toolchainFiles?.(run)) ?? [])],
    limits: record.limits ?? {},
    ...(record.systemPaths ? { systemPaths: record.systemPaths } : {}),
  };
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

function runCommand(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // stdout and stderr: Python 2 printed its version on stderr.
    execFile(file, args, { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (error, stdout, stderr) =>
      error ? reject(error) : resolve(`${stdout}${stderr}`),
    );
  });
}
