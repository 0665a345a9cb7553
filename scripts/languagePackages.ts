/**
 * Prints the Debian packages of a set of languages, one per line, from their records: `default`
 * (the records whose `install` is "default"), `all`, or language ids (Piston's names, as
 * `GET /api/v2/runtimes` lists them; aliases too). Run by scripts/install-languages.sh.
 * An unknown id stops it with exit code 2 and the known ones, before anything is installed.
 */
import { LANGUAGE_RECORDS, type LanguageRecord } from "@ensemble/protocol";

const records: readonly LanguageRecord[] = LANGUAGE_RECORDS;

/** The records `names` choose, in the records' order; the names no record answers to. */
function chooseLanguages(names: readonly string[]): {
  chosen: LanguageRecord[];
  unknown: string[];
} {
  const wanted = new Set<LanguageRecord>();
  const unknown: string[] = [];
  for (const name of names.map((n) => n.toLowerCase())) {
    if (name === "all") for (const r of records) wanted.add(r);
    else if (name === "default")
      for (const r of records.filter((r) => r.install === "default")) wanted.add(r);
    else {
      const record = records.find((r) => r.id === name || r.aliases.includes(name));
      if (record) wanted.add(record);
      else unknown.push(name);
    }
  }
  return { chosen: records.filter((r) => wanted.has(r)), unknown };
}

function main(names: string[]) {
  if (names.length === 0) {
    process.stderr.write("usage: install-languages.sh default | all | <language id>...\n");
    process.exit(2);
  }
  const { chosen, unknown } = chooseLanguages(names);
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown language${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}\nknown: default, all, ${records.map((r) => r.id).join(", ")}\n`,
    );
    process.exit(2);
  }
  const packages = [...new Set(chosen.flatMap((r) => r.debianPackages))];
  process.stdout.write(packages.map((p) => `${p}\n`).join(""));
}

main(process.argv.slice(2));
