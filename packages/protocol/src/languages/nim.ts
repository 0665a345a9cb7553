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
  // Debian's /etc/nim/nim.cfg gives the standard library's search paths and GCC's flags.
  systemPaths: ["/etc/nim"],
  // Its C files and objects in the run's /tmp (not ~/.cache, and not {out}, which a re-run keeps).
  compile: {
    command: "nim",
    args: ["compile", "--hints:off", "--nimcache:/tmp/nimcache", "--out:{out}/main", "{file}"],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "nim", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
