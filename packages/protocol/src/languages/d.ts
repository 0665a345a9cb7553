import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** D on Debian's GDC (GCC's D front end): every `.d` of the entry's folder into one program. */
export const d = {
  id: "d",
  name: "D",
  aliases: ["gdc"],
  extensions: ["d"],
  mainFile: "main.d",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\nimport std.stdio;\n\nvoid main()\n{\n    writeln("Hello, world!");\n}\n',
  // Monaco has no D grammar.
  monaco: "plaintext",
  iconColor: "#ba595e",
  debianPackages: ["gdc"],
  install: "optional",
  compile: { command: "gdc", args: ["-o", "{out}/main", "{sources}"] },
  run: { command: "{out}/main", args: [] },
  version: { command: "gdc", args: ["-dumpfullversion"], parse: coerceVersion },
} as const satisfies LanguageRecord;
