import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Rust on Debian's rustc (no cargo, no crates): `main.rs` and the modules it declares with `mod`. */
export const rust = {
  id: "rust",
  name: "Rust",
  aliases: ["rs"],
  extensions: ["rs"],
  mainFile: "main.rs",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\nfn main() {\n    println!("Hello, world!");\n}\n',
  monaco: "rust",
  iconColor: "#dea584",
  debianPackages: ["rustc"],
  install: "default",
  // rustc links with `cc`, an /etc/alternatives link the sandbox does not have: gcc is the same.
  // Debian's 1.63 links its standard library's debug info in: a hello world passed the run's
  // 16 MiB /tmp, so the program is linked without it (`-C strip=debuginfo`).
  compile: {
    command: "rustc",
    args: ["--edition", "2021", "-C", "linker=gcc", "-C", "strip=debuginfo", "-o", "{out}/main", "{file}"],
    colourArgs: ["--color", "always"],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "rustc", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
