import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** COBOL on Debian's GnuCOBOL in free format, as Piston compiles it: the entry is the main program, the folder's other sources its subprograms. */
export const cobol = {
  id: "cobol",
  name: "COBOL",
  aliases: ["cob"],
  extensions: ["cob", "cbl", "cpy"],
  // Copybooks (.cpy) are copied in, not compiled.
  sourceExtensions: ["cob", "cbl"],
  mainFile: "main.cob",
  starter:
    '*> Welcome to Ensemble: edit together, run, review.\n       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       PROCEDURE DIVISION.\n           DISPLAY "Hello, world!".\n           STOP RUN.\n',
  // Monaco has no COBOL grammar.
  monaco: "plaintext",
  iconColor: "#005ca5",
  debianPackages: ["gnucobol3"],
  install: "optional",
  // cobc reads its dialect configuration (default.conf) from /etc/gnucobol.
  systemPaths: ["/etc/gnucobol"],
  compile: { command: "cobc", args: ["-x", "-free", "-I{dir}", "-o", "{out}/main", "{sources}"] },
  run: { command: "{out}/main", args: [] },
  version: { command: "cobc", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
