import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

// Debian's fpc finds its compiler and units through /etc (fpc.cfg and an /etc/alternatives
// link); the sandbox has neither, so the driver is told where both are (-n: no config file).
const FPC_DIR = "/usr/lib/x86_64-linux-gnu/fpc/3.2.2";

/** Pascal on Debian's Free Pascal: `main.pas` and the units it uses from its folder. */
export const pascal = {
  id: "pascal",
  name: "Pascal",
  aliases: ["freepascal", "pp", "pas"],
  extensions: ["pas", "pp"],
  mainFile: "main.pas",
  starter:
    "{ Welcome to Ensemble: edit together, run, review. }\nprogram Main;\n\nbegin\n  writeln('Hello, world!');\nend.\n",
  monaco: "pascal",
  iconColor: "#e3f171",
  // fp-compiler brings the run-time library units (fp-units-rtl-3.2.2).
  debianPackages: ["fp-compiler"],
  install: "optional",
  compile: {
    command: "fpc",
    args: [
      "-n",
      `-Xp${FPC_DIR}/`,
      `-Fu${FPC_DIR}/units/x86_64-linux/*`,
      "-l-",
      "-v0",
      "-Fu{dir}",
      // Units' objects in the run's /tmp; {out} holds only the program a re-run keeps.
      "-FU/tmp",
      "-o{out}/main",
      "{file}",
    ],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "fpc", args: ["-iV"], parse: coerceVersion },
} as const satisfies LanguageRecord;
