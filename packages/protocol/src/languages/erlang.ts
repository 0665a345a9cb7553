import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Erlang as an escript (a module-less file with `main/1`) on Debian's Erlang/OTP. */
export const erlang = {
  id: "erlang",
  name: "Erlang",
  aliases: ["erl", "escript"],
  extensions: ["erl"],
  mainFile: "main.erl",
  // escript drops the first line as its `#!` line, whatever it holds, and numbers the rest as
  // if it was not there unless it starts with `#!`: errors name the right line only after one.
  starter:
    '#!/usr/bin/env escript\n%% Welcome to Ensemble: edit together, run, review.\nmain(_) ->\n    io:format("Hello, world!~n").\n',
  monaco: "plaintext",
  iconColor: "#a90533",
  debianPackages: ["erlang-base"],
  // OTP 25's JIT maps its code through a memory file, which RLIMIT_FSIZE caps too: past the
  // server's 10 MB (Elixir's compiler alone needs 16) BEAM dies of SIGXFSZ. OTP 26 has +JMsingle.
  limits: { fileSizeBytes: 64 * 1024 * 1024 },
  run: { command: "escript", args: ["{file}"] },
  // OTP's full version ("25.2.3") is only in its OTP_VERSION file; `erl` prints the release ("25").
  version: {
    command: "erl",
    args: [
      "-noshell",
      "-eval",
      'io:put_chars(element(2, file:read_file(filename:join([code:root_dir(), "releases", erlang:system_info(otp_release), "OTP_VERSION"])))), halt().',
    ],
    parse: coerceVersion,
  },
} as const satisfies LanguageRecord;
