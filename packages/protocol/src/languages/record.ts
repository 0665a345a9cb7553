/**
 * A command run in the sandbox: `command` is looked up under /usr on PATH, then `args` follow.
 * In `args`, `{file}` is the main file's path and `{stem}` its name without the extension
 * (`Main` for `Main.java`).
 */
export interface LanguageCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** Limits a language needs that differ from the server's defaults (Piston's names, in ms and bytes). */
export interface LanguageLimits {
  readonly compileTimeoutMs?: number;
  readonly compileCpuTimeMs?: number;
  readonly compileMemoryBytes?: number;
  readonly runTimeoutMs?: number;
  readonly runCpuTimeMs?: number;
  readonly runMemoryBytes?: number;
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
  /** The compile stage, absent for an interpreted language. */
  readonly compile?: LanguageCommand;
  /** The run stage; the program's own arguments follow `args`. */
  readonly run: LanguageCommand;
  /** Limits that differ from the server's defaults. */
  readonly limits?: LanguageLimits;
  /** How to read the installed version: a command whose output (stdout and stderr) `parse` turns into SemVer. */
  readonly version: LanguageCommand & { readonly parse: (output: string) => string };
}
