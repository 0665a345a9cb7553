import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Elixir scripts on Debian's Elixir (on its Erlang/OTP). */
export const elixir = {
  id: "elixir",
  name: "Elixir",
  aliases: ["elixir", "exs"],
  extensions: ["exs", "ex"],
  mainFile: "main.exs",
  starter: '# Welcome to Ensemble: edit together, run, review.\nIO.puts("Hello, world!")\n',
  monaco: "elixir",
  iconColor: "#6e4a7e",
  debianPackages: ["elixir"],
  // OTP 25's JIT maps its code through a memory file, which RLIMIT_FSIZE caps too: past the
  // server's 10 MB (Elixir's compiler alone needs 16) BEAM dies of SIGXFSZ. OTP 26 has +JMsingle.
  limits: { fileSizeBytes: 64 * 1024 * 1024 },
  run: { command: "elixir", args: ["{file}"] },
  // "Erlang/OTP 25 [erts-13.1.5] ...\n\nElixir 1.14.0 (compiled with Erlang/OTP 24)"
  version: {
    command: "elixir",
    args: ["--version"],
    parse: (out) => coerceVersion(out.slice(out.indexOf("Elixir"))),
  },
} as const satisfies LanguageRecord;
