import { esbuild, gcc, goBuild, javac, mcs, rustc, tsc } from "./compilers";
import type { DiagnosticParser } from "./parser";
import { WorkspacePaths } from "./paths";
import { DIAGNOSTIC_LIMITS, type Diagnostic } from "./schema";
import { bash, goPanic, javaTrace, lua, node, perl, php, python, ruby, rustPanic } from "./traces";

export { SANDBOX_ROOT, WorkspacePaths } from "./paths";
export * from "./schema";

/** How one language's errors read: what its compile prints, and what its run prints on stderr. */
interface Readers {
  compile: readonly DiagnosticParser[];
  run: readonly DiagnosticParser[];
  /** PHP prints its errors on stdout unless configured otherwise. */
  runStdout?: boolean;
}

const C: Readers = { compile: [gcc], run: [] };
const READERS: Readonly<Record<string, Readers>> = {
  c: C,
  "c++": C,
  java: { compile: [javac], run: [javaTrace] },
  go: { compile: [goBuild], run: [goPanic] },
  rust: { compile: [rustc], run: [rustPanic] },
  // TypeScript is checked by tsc or bundled by esbuild, then runs on Node.
  typescript: { compile: [tsc, esbuild], run: [tsc, esbuild, node] },
  javascript: { compile: [], run: [node] },
  python: { compile: [], run: [python] },
  ruby: { compile: [], run: [ruby] },
  php: { compile: [], run: [php], runStdout: true },
  lua: { compile: [], run: [lua] },
  perl: { compile: [], run: [perl] },
  bash: { compile: [], run: [bash] },
  csharp: { compile: [mcs], run: [] },
};

/** Piston's names and aliases, and the entry's extension, for languages whose record may not be here yet. */
const ALIASES: Readonly<Record<string, string>> = {
  gcc: "c",
  h: "c",
  cpp: "c++",
  cc: "c++",
  cxx: "c++",
  hpp: "c++",
  "g++": "c++",
  golang: "go",
  rs: "rust",
  ts: "typescript",
  mts: "typescript",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  "node-js": "javascript",
  py: "python",
  py3: "python",
  python3: "python",
  rb: "ruby",
  pl: "perl",
  pm: "perl",
  sh: "bash",
  cs: "csharp",
  "c#": "csharp",
  mono: "csharp",
};

function readersOf(language: string, entry: string | undefined): Readers | undefined {
  const extension = entry?.includes(".") ? entry.slice(entry.lastIndexOf(".") + 1).toLowerCase() : "";
  for (const key of [language.toLowerCase(), extension]) {
    const readers = READERS[key] ?? READERS[ALIASES[key] ?? ""];
    if (readers) return readers;
  }
  return undefined;
}

/** What a run printed, as its result's stages have it. */
export interface RunOutput {
  /** The session language or Piston's language name (`c++`, `python`). */
  language: string;
  /** The workspace paths the run had (`src/main.c`), in /box inside the sandbox. */
  files: readonly string[];
  /** The file the run entered at. */
  entry?: string | undefined;
  compile?: { stdout: string; stderr: string } | undefined;
  run?: { stdout: string; stderr: string } | undefined;
}

/**
 * The errors and warnings a run's compile output and run stderr report on the run's own
 * files, in the order printed, without duplicates, at most DIAGNOSTIC_LIMITS.maxDiagnostics,
 * each message capped. References to anything outside the workspace are dropped. Pure: the
 * same output always gives the same diagnostics.
 */
export function diagnosticsOfRun(output: RunOutput): Diagnostic[] {
  const readers = readersOf(output.language, output.entry);
  if (!readers) return [];
  const paths = new WorkspacePaths(output.files, output.entry);
  const found: Diagnostic[] = [];
  const read = (parsers: readonly DiagnosticParser[], whole: string | undefined) => {
    // One parser per stream: the first that finds anything (TypeScript's tsc or esbuild).
    if (!whole) return;
    const text = clipped(whole);
    for (const parse of parsers) {
      const some = parse(text, paths);
      if (some.length > 0) {
        found.push(...some);
        return;
      }
    }
  };
  if (output.compile) read(readers.compile, `${output.compile.stdout}\n${output.compile.stderr}`);
  if (output.run) {
    read(readers.run, output.run.stderr);
    if (readers.runStdout) read(readers.run, output.run.stdout);
  }
  return unique(found)
    .slice(0, DIAGNOSTIC_LIMITS.maxDiagnostics)
    .map((d) => ({ ...d, message: capped(d.message) }));
}

/**
 * At most MAX_TEXT characters of a stream: its start (where a compiler's first errors are) and
 * its end (where a traceback is), whatever the server's output cap.
 */
const MAX_TEXT = 256 * 1024;

function clipped(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  return `${text.slice(0, MAX_TEXT / 2)}\n${text.slice(-MAX_TEXT / 2)}`;
}

function unique(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.path}\0${d.line}\0${d.column ?? ""}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function capped(message: string): string {
  const max = DIAGNOSTIC_LIMITS.maxMessageLength;
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}
