import type { LanguageServerId } from "@ensemble/protocol";

/**
 * What the server needs to run one kind of shared language server (docs/intelligence.md,
 * "How to add another server"): where its binary may be, how it is started, what it is told
 * at `initialize`, and which files it is fed. One record per server; the pool, the sandbox
 * and the document feed are the same for all.
 */
export interface LanguageServerRecord {
  id: LanguageServerId;
  /** For logs and messages. */
  name: string;
  /** Where the binary is looked for, in order, when its setting (`binaryEnv`) is unset. */
  binaries: readonly string[];
  /** The setting naming the binary (docs/configuration.md). */
  binaryEnv: "CLANGD_PATH";
  /** Arguments after the binary: stdio LSP, no index on disk, one worker. */
  args: readonly string[];
  /** LSP `initializationOptions`. */
  initializationOptions?: Record<string, unknown>;
  /** Files written beside the workspace's in the server's folder (a project configuration). */
  configFiles?: Readonly<Record<string, string>>;
  /**
   * The LSP language id of a served file by its extension; files of other extensions are not
   * fed to this server.
   */
  languageIdOf(extension: string): string | undefined;
  /** Processes and threads the server may hold (its cgroup's pids.max). */
  maxProcesses: number;
}

const C_EXTENSIONS = new Set(["c"]);
const CPP_EXTENSIONS = new Set(["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl"]);

/** clangd (Debian's `clangd` package, clangd 14 on bookworm) for C and C++: one per session for both. */
export const CLANGD: LanguageServerRecord = {
  id: "clangd",
  name: "clangd",
  binaries: ["/usr/bin/clangd", "/usr/bin/clangd-16", "/usr/bin/clangd-15", "/usr/bin/clangd-14"],
  binaryEnv: "CLANGD_PATH",
  // No background index (it writes to disk and takes a core for minutes), one worker thread,
  // preambles in memory (the sandbox's /tmp is small), no #include insertion into shared text.
  args: [
    "--background-index=false",
    "-j=1",
    "--pch-storage=memory",
    "--header-insertion=never",
    "--log=error",
    "--limit-results=100",
  ],
  // Without a compilation database clangd guesses each file's flags: a `.h` is read as C unless
  // a C++ file includes it, and the workspace's own folders are searched for includes.
  configFiles: { "compile_flags.txt": "-I.\n-Isrc\n-Iinclude\n" },
  languageIdOf(extension) {
    if (C_EXTENSIONS.has(extension)) return "c";
    if (extension === "h") return "c";
    return CPP_EXTENSIONS.has(extension) ? "cpp" : undefined;
  },
  // clangd runs two threads per open file (its AST worker and its preamble builder) besides its own.
  maxProcesses: 128,
};

/** Every shared language server this server knows. A new one is one record here. */
export const LANGUAGE_SERVERS: readonly LanguageServerRecord[] = [CLANGD];
