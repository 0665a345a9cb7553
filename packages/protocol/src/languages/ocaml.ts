import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** OCaml on Debian's native-code compiler (ocamlopt): one file, `main.ml`. */
export const ocaml = {
  id: "ocaml",
  name: "OCaml",
  aliases: ["ocaml", "ml"],
  extensions: ["ml", "mli"],
  // An interface (.mli) is not where a run starts.
  sourceExtensions: ["ml"],
  mainFile: "main.ml",
  starter: '(* Welcome to Ensemble: edit together, run, review. *)\nlet () = print_endline "Hello, world!"\n',
  // Monaco has no OCaml grammar.
  monaco: "plaintext",
  iconColor: "#ef7a08",
  debianPackages: ["ocaml"],
  install: "optional",
  // ocamlopt needs the modules in dependency order, which {sources} (the entry first) is not.
  compile: { command: "ocamlopt", args: ["-o", "{out}/main", "{file}"] },
  run: { command: "{out}/main", args: [] },
  version: { command: "ocamlopt", args: ["-version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
