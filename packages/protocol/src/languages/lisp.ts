import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Common Lisp on Debian's SBCL, as a script. */
export const lisp = {
  id: "lisp",
  name: "Common Lisp",
  aliases: ["lisp", "cl", "sbcl", "commonlisp"],
  extensions: ["lisp", "cl", "lsp"],
  mainFile: "main.lisp",
  starter: ';;;; Welcome to Ensemble: edit together, run, review.\n(write-line "Hello, world!")\n',
  // Monaco has no Common Lisp (Scheme's rules would mark its keywords wrong).
  monaco: "plaintext",
  iconColor: "#3fb68b",
  debianPackages: ["sbcl"],
  // --script: no init files, no debugger (an error prints a backtrace and exits non-zero).
  run: { command: "sbcl", args: ["--script", "{file}"] },
  // "SBCL 2.2.9.debian"
  version: { command: "sbcl", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
