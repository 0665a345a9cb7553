import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Haskell on Debian's GHC: `main.hs` and the modules it imports from its folder. */
export const haskell = {
  id: "haskell",
  name: "Haskell",
  aliases: ["haskell", "hs"],
  extensions: ["hs"],
  mainFile: "main.hs",
  starter:
    '-- Welcome to Ensemble: edit together, run, review.\nmain :: IO ()\nmain = putStrLn "Hello, world!"\n',
  // Monaco has no Haskell grammar.
  monaco: "plaintext",
  iconColor: "#5e5086",
  debianPackages: ["ghc"],
  install: "optional",
  // Debian's GHC keeps its package database (base included) in /var/lib/ghc.
  systemPaths: ["/var/lib/ghc"],
  // Interface and object files in the run's /tmp; {out} holds only the program a re-run keeps.
  compile: {
    command: "ghc",
    args: ["-v0", "-i{dir}", "-outputdir", "/tmp/ghc", "-o", "{out}/main", "{file}"],
  },
  run: { command: "{out}/main", args: [] },
  limits: { compileTimeoutMs: 20_000 },
  version: { command: "ghc", args: ["--numeric-version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
