import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** C on Debian's GCC: every `.c` of the entry's folder is compiled and linked into one program. */
export const c = {
  id: "c",
  name: "C",
  aliases: ["gcc"],
  extensions: ["c", "h"],
  // Headers are included, not compiled.
  sourceExtensions: ["c"],
  mainFile: "main.c",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\n#include <stdio.h>\n\nint main(void) {\n  printf("Hello, world!\\n");\n  return 0;\n}\n',
  // Monaco highlights C with its C++ grammar (its "c" id loads the same one).
  monaco: "cpp",
  iconColor: "#555555",
  // clangd: the shared language server for C and C++ (docs/intelligence.md).
  debianPackages: ["gcc", "libc6-dev", "clangd"],
  install: "default",
  compile: {
    command: "gcc",
    args: ["-Wall", "-o", "{out}/main", "{sources}", "-lm"],
    colourArgs: ["-fdiagnostics-color=always"],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "gcc", args: ["-dumpfullversion"], parse: coerceVersion },
} as const satisfies LanguageRecord;
