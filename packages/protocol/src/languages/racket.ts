import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Racket on Debian's Racket CS. */
export const racket = {
  id: "racket",
  name: "Racket",
  aliases: ["rkt"],
  extensions: ["rkt"],
  mainFile: "main.rkt",
  starter: '#lang racket\n;; Welcome to Ensemble: edit together, run, review.\n(displayln "Hello, world!")\n',
  // Monaco has no Racket; Scheme's highlighting fits its syntax.
  monaco: "scheme",
  iconColor: "#9f1d20",
  debianPackages: ["racket"],
  run: { command: "racket", args: ["{file}"] },
  // Debian says where the precompiled libraries are in /etc/racket/config.rktd, which the
  // sandbox does not have: without this, each run compiles `racket` from source (25 s).
  env: { PLTCOMPILEDROOTS: "same:/usr/lib/racket/compiled" },
  // "Welcome to Racket v8.7 [cs]."
  version: { command: "racket", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
