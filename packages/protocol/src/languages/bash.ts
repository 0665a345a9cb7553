import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Bash scripts on Debian's GNU Bash. */
export const bash = {
  id: "bash",
  name: "Bash",
  aliases: ["sh"],
  extensions: ["sh", "bash"],
  mainFile: "main.sh",
  starter: '# Welcome to Ensemble: edit together, run, review.\necho "Hello, world!"\n',
  monaco: "shell",
  iconColor: "#4eaa25",
  debianPackages: ["bash"],
  install: "default",
  run: { command: "bash", args: ["{file}"] },
  // "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)"
  version: { command: "bash", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
