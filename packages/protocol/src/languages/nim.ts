import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Nim on Debian's compiler (through GCC): `main.nim` and the modules it imports. */
export const nim = {
  id: "nim",
  name: "Nim",
  aliases: [],
  extensions: ["nim"],
  mainFile: "main.nim",
  starter: '# Welcome to Ensemble: edit together, run, review.\necho "Hello, world!"\n',
  // Monaco has no Nim grammar.
  monaco: "plaintext",
  iconColor: "#ffc200",
  debianPackages: ["nim"],
  install: "optional",
  // Its cache under {out}, not ~/.cache; -w: without /etc/nim/nim.cfg the generated C's
  // warnings would reach the compile output.
  compile: {
    command: "nim",
    args: ["compile", "--hints:off", "--passC:-w", "--nimcache:{out}/nimcache", "--out:{out}/main", "{file}"],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "nim", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
