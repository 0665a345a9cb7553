import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/**
 * sqlite3 reads the program's SQL from the main file (`.read`) into an in-memory database,
 * after a table `argv (arg TEXT)` holding the program's arguments in order, as Piston's sqlite3
 * package does. Unlike Piston, stdin stays the program's: `.import /dev/stdin t` reads it.
 * `-bail` stops at the first error with exit code 1; `.exit N` ends with code N.
 */
const RUN_SCRIPT = [
  `q="'"`,
  `sql="CREATE TABLE argv (arg TEXT);"`,
  `for arg in "$@"; do sql+="INSERT INTO argv VALUES ($q\${arg//$q/$q$q}$q);"; done`,
  `exec sqlite3 -bail -batch :memory: "$sql" ".read $q$0$q"`,
].join("\n");

/** SQLite's SQL on Debian's sqlite3 shell. */
export const sqlite3 = {
  id: "sqlite3",
  name: "SQLite",
  aliases: ["sqlite", "sql"],
  extensions: ["sql"],
  mainFile: "main.sql",
  starter: "-- Welcome to Ensemble: edit together, run, review.\nSELECT 'Hello, world!';\n",
  monaco: "sql",
  iconColor: "#003b57",
  debianPackages: ["sqlite3"],
  install: "default",
  // bash turns the arguments into SQL (its $0 is the file), then becomes sqlite3.
  run: { command: "bash", args: ["-c", RUN_SCRIPT, "{file}"] },
  // "3.40.1 2022-12-28 14:03:47 df5c25..."
  version: { command: "sqlite3", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
