import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Perl 5 on Debian's perl. */
export const perl = {
  id: "perl",
  name: "Perl",
  aliases: ["pl"],
  extensions: ["pl", "pm"],
  mainFile: "main.pl",
  starter: '# Welcome to Ensemble: edit together, run, review.\nprint "Hello, world!\\n";\n',
  monaco: "perl",
  iconColor: "#39457e",
  debianPackages: ["perl"],
  run: { command: "perl", args: ["{file}"] },
  // "v5.36.0": `perl --version` starts with a paragraph of text.
  version: { command: "perl", args: ["-e", "print $^V"], parse: coerceVersion },
} as const satisfies LanguageRecord;
