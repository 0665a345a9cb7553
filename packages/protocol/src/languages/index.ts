import { z } from "zod";
import { bash } from "./bash";
import { c } from "./c";
import { clojure } from "./clojure";
import { cobol } from "./cobol";
import { cpp } from "./cpp";
import { csharp } from "./csharp";
import { d } from "./d";
import { elixir } from "./elixir";
import { erlang } from "./erlang";
import { fortran } from "./fortran";
import { go } from "./go";
import { haskell } from "./haskell";
import { java } from "./java";
import { javascript } from "./javascript";
import { lisp } from "./lisp";
import { lua } from "./lua";
import { nasm } from "./nasm";
import { nim } from "./nim";
import { ocaml } from "./ocaml";
import { pascal } from "./pascal";
import { perl } from "./perl";
import { php } from "./php";
import { prolog } from "./prolog";
import { python } from "./python";
import { racket } from "./racket";
import { rscript } from "./rscript";
import { ruby } from "./ruby";
import { rust } from "./rust";
import { sqlite3 } from "./sqlite3";
import { typescript } from "./typescript";

export type { LanguageCommand, LanguageLimits, LanguageRecord } from "./record";
export { coerceVersion } from "./version";

/**
 * Every language, one record each, in the picker's order (the spec's JavaScript and Python
 * first). Adding a language is one file in this folder and one entry here.
 */
export const LANGUAGE_RECORDS = [
  javascript,
  python,
  // Compiled, by how often interviews use them, then the rest by name.
  java,
  cpp,
  c,
  go,
  rust,
  typescript,
  csharp,
  cobol,
  d,
  fortran,
  haskell,
  nasm,
  nim,
  ocaml,
  pascal,
  ruby,
  php,
  bash,
  lua,
  sqlite3,
  perl,
  rscript,
  elixir,
  erlang,
  clojure,
  racket,
  lisp,
  prolog,
] as const;

type AnyRecord = (typeof LANGUAGE_RECORDS)[number];

/** A language's id: the session's language and Piston's language name. */
export type Language = AnyRecord["id"];

/** The language a new session starts with, and the one a session whose stored language is unknown falls back to. */
export const DEFAULT_LANGUAGE: Language = "javascript";

const ids = LANGUAGE_RECORDS.map((r) => r.id) as [Language, ...Language[]];

/** A known language id; anything else is refused. */
export const LanguageSchema = z.enum(ids);

/** The records by id. */
export const LANGUAGES = Object.fromEntries(LANGUAGE_RECORDS.map((r) => [r.id, r])) as {
  readonly [K in Language]: Extract<AnyRecord, { id: K }>;
};

/** Whether `value` names a known language (a stored session language may not, once a record is removed). */
export function isLanguage(value: string): value is Language {
  return LanguageSchema.safeParse(value).success;
}

/** The text each language's main file starts with in a new session (the spec's hello-world starters). */
export const STARTER_CODE = Object.fromEntries(LANGUAGE_RECORDS.map((r) => [r.id, r.starter])) as {
  readonly [K in Language]: string;
};

/** The path of the file a language's Run Code and language switch use (`src/<mainFile>`). */
export const LANGUAGE_MAIN_FILES = Object.fromEntries(
  LANGUAGE_RECORDS.map((r) => [r.id, `src/${r.mainFile}`]),
) as {
  readonly [K in Language]: string;
};

const BY_EXTENSION: ReadonlyMap<string, AnyRecord> = new Map(
  LANGUAGE_RECORDS.flatMap((r) => r.extensions.map((ext) => [ext, r] as const)),
);

/** The language whose files end with `extension` (no dot, any case), or undefined. */
export function languageOfExtension(extension: string): AnyRecord | undefined {
  return BY_EXTENSION.get(extension.toLowerCase());
}
