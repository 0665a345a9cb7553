/**
 * A command run in the sandbox: `command` is looked up under /usr on PATH (or, for a compiled
 * program, is a path under `{out}`), then `args` follow. Placeholders in `command` and `args`:
 *
 * - `{file}`: the entry file's path inside the sandbox (`/box/src/main.c`);
 * - `{stem}`: the entry's name without its extension (`Main` for `Main.java`);
 * - `{dir}`: the entry's folder (`/box/src`);
 * - `{sources}`: as its own argument, every file of the entry's folder (and below) with one of
 *   the language's extensions, the entry first: a C project's `.c` files, a Go package;
 * - `{out}`: an empty writable folder (`/tmp/out`) the compile writes to and the run reads.
 *
 * The compile and the run both start in `/box`, where the project's files are.
 */
export interface LanguageCommand {
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Appended when the output is rendered by the shared terminal (never for a Piston client,
   * which reads plain text): a compiler's flag to print colours into a pipe, such as gcc's
   * `-fdiagnostics-color=always`. The diagnostics parser reads coloured output as well.
   */
  readonly colourArgs?: readonly string[];
}

/** Limits a language needs that differ from the server's defaults (Piston's names, in ms and bytes). */
export interface LanguageLimits {
  readonly compileTimeoutMs?: number;
  readonly compileCpuTimeMs?: number;
  readonly compileMemoryBytes?: number;
  readonly runTimeoutMs?: number;
  readonly runCpuTimeMs?: number;
  readonly runMemoryBytes?: number;
  /**
   * The largest file a run may write (RLIMIT_FSIZE), when the server's RUN_MAX_FILE_SIZE_BYTES
   * is too small for the runtime itself; the larger of the two applies. Memory files count too:
   * Erlang's JIT maps its code through one. Files on disk stay within the sandbox's tmpfs size.
   */
  readonly fileSizeBytes?: number;
}

/**
 * Everything Ensemble knows of one language, declared once: the protocol, the server's runtimes,
 * the editor's picker, highlighting and file icons all derive from it.
 */
export interface LanguageRecord {
  /** The session's language and Piston's `language` name (`c++`, `python`). */
  readonly id: string;
  /** What people read in the picker and the status bar. */
  readonly name: string;
  /** Other names Piston clients may send as `language`. */
  readonly aliases: readonly string[];
  /** Piston's `runtime` field, only where several packages could provide the language (`node`). */
  readonly runtime?: string;
  /** File extensions without the dot, lower case; the first is the language's own. */
  readonly extensions: readonly string[];
  /**
   * The extensions of the files `{sources}` compiles, when not all of them (C's `.c` but not
   * its headers `.h`).
   */
  readonly sourceExtensions?: readonly string[];
  /** The file a new session or a language switch creates under `src/` (`main.py`, `Main.java`). */
  readonly mainFile: string;
  /** The main file's text when it is created. */
  readonly starter: string;
  /** Monaco's language id for highlighting. */
  readonly monaco: string;
  /** The colour of its files' icons in the explorer. */
  readonly iconColor: string;
  /** Debian packages that provide the toolchain (all of it under /usr). */
  readonly debianPackages: readonly string[];
  /**
   * Whether the README's first command installs this language (`scripts/install-languages.sh
   * default`): "default" for the languages most people need, "optional" (also when absent) for
   * those `scripts/install-languages.sh all` or a list of ids adds.
   */
  readonly install?: "default" | "optional";
  /** The compile stage, absent for an interpreted language. */
  readonly compile?: LanguageCommand;
  /** The run stage; the program's own arguments follow `args`. */
  readonly run: LanguageCommand;
  /**
   * Environment both stages get besides PATH, HOME=/tmp and LANG (a toolchain's caches and
   * settings, e.g. GOCACHE under /tmp); values may use the placeholders.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Folders outside /usr where Debian puts what the toolchain reads at run time (the JDK's
   * `/etc/java-17-openjdk`, Mono's `/etc/mono`, GHC's package database in `/var/lib/ghc`): the
   * sandbox binds each read-only when it exists, and nothing else outside /usr.
   */
  readonly systemPaths?: readonly string[];
  /** Limits that differ from the server's defaults. */
  readonly limits?: LanguageLimits;
  /** How to read the installed version: a command whose output (stdout and stderr) `parse` turns into SemVer. */
  readonly version: LanguageCommand & { readonly parse: (output: string) => string };
}
