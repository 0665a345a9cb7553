import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Prolog on Debian's SWI-Prolog. */
export const prolog = {
  id: "prolog",
  name: "Prolog",
  aliases: ["prolog", "plg", "swipl"],
  // Not `pl`: Perl has it.
  extensions: ["pro", "prolog"],
  mainFile: "main.pro",
  starter:
    '% Welcome to Ensemble: edit together, run, review.\n:- initialization(main, main).\n\nmain :- writeln("Hello, world!").\n',
  // Monaco has no Prolog.
  monaco: "plaintext",
  iconColor: "#e61b23",
  debianPackages: ["swi-prolog-core"],
  // As Piston: load the file, run its directives, then halt rather than open the interactive
  // top level. --on-error=status: a file that printed errors (a syntax error) exits with 1.
  run: { command: "swipl", args: ["--on-error=status", "-g", "true", "-t", "halt", "{file}"] },
  // "SWI-Prolog version 9.0.4 for x86_64-linux"
  version: { command: "swipl", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
