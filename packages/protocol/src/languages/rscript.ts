import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** R scripts on Debian's R. */
export const rscript = {
  id: "rscript",
  name: "R",
  aliases: ["r"],
  extensions: ["r"],
  mainFile: "main.r",
  starter: '# Welcome to Ensemble: edit together, run, review.\ncat("Hello, world!\\n")\n',
  monaco: "r",
  iconColor: "#276dc3",
  debianPackages: ["r-base-core"],
  // Debian's R reads files that it links into /etc: the server writes them for the run
  // (execution/rlang.ts), with a site profile that names a syntax error's line.
  run: { command: "Rscript", args: ["{file}"] },
  // "Rscript (R) version 4.2.2 Patched (2022-11-10 r83330)"
  version: { command: "Rscript", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
