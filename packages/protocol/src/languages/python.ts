import type { LanguageRecord } from "./record";

/** Python 3 on Debian's CPython. */
export const python = {
  id: "python",
  name: "Python",
  aliases: ["py", "py3", "python3", "python"],
  extensions: ["py"],
  mainFile: "main.py",
  starter: '# Welcome to Ensemble: edit together, run, review.\nprint("Hello, world!")\n',
  monaco: "python",
  iconColor: "#4b8bbe",
  debianPackages: ["python3"],
  install: "default",
  // -E -s: no PYTHON* variables, no user site; -u: unbuffered so output interleaves truly;
  // -B: no .pyc writes. Not -I: the script's folder stays on sys.path for multi-file runs.
  run: { command: "python3", args: ["-E", "-s", "-u", "-B", "{file}"] },
  version: { command: "python3", args: ["--version"], parse: (out) => out.trim().replace(/^Python\s+/, "") },
} as const satisfies LanguageRecord;
