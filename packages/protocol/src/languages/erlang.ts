import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Erlang as an escript (a module-less file with `main/1`) on Debian's Erlang/OTP. */
export const erlang = {
  id: "erlang",
  name: "Erlang",
  aliases: ["erl", "escript"],
  extensions: ["erl"],
  mainFile: "main.erl",
  // escript skips the file's first line (a #! line elsewhere): the welcome comment fits there.
  starter:
    '%% Welcome to Ensemble: edit together, run, review.\nmain(_) ->\n    io:format("Hello, world!~n").\n',
  monaco: "plaintext",
  iconColor: "#a90533",
  debianPackages: ["erlang-base"],
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
