/**
 * The first version number in `text` as SemVer, read as `semver.coerce` reads it: missing parts
 * are zero and anything after the third is dropped (`v8.7` → `8.7.0`, `2.2.9.debian` → `2.2.9`).
 * Throws when there is none, so the server lists the language as a problem instead of a runtime.
 */
export function coerceVersion(text: string): string {
  const match = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text);
  if (!match) throw new Error(`no version number in ${JSON.stringify(text.slice(0, 80))}`);
  const [, major, minor = "0", patch = "0"] = match;
  return `${Number(major)}.${Number(minor)}.${Number(patch)}`;
}
