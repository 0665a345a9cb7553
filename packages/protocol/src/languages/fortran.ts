import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Fortran on Debian's GFortran: every source of the entry's folder into one program. */
export const fortran = {
  id: "fortran",
  name: "Fortran",
  aliases: ["fortran", "f90"],
  extensions: ["f90", "f95", "f03", "f08", "f", "for"],
  mainFile: "main.f90",
  starter:
    '! Welcome to Ensemble: edit together, run, review.\nprogram main\n  print "(a)", "Hello, world!"\nend program main\n',
  // Monaco has no Fortran grammar.
  monaco: "plaintext",
  iconColor: "#4d41b1",
  debianPackages: ["gfortran"],
  install: "optional",
  // -J: module files go to the run's /tmp, not beside the sources nor into {out} (which a re-run keeps).
  compile: { command: "gfortran", args: ["-J/tmp", "-o", "{out}/main", "{sources}"] },
  run: { command: "{out}/main", args: [] },
  version: { command: "gfortran", args: ["-dumpfullversion"], parse: coerceVersion },
} as const satisfies LanguageRecord;
