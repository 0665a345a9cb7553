/**
 * The part of SemVer ranges Piston clients send: `*`, `x`, partial versions (`18`, `18.x`,
 * `3.10.0`), `^` and `~`, comparators (`>=3.8 <4`) and `||`. Prerelease tags are ignored.
 */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((c) => matches(v, c)),
  );
}

type Triple = [number, number, number];

function parseVersion(text: string): Triple | undefined {
  const match = text.trim().match(/^v?(\d+)\.(\d+)\.(\d+)/);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** A partial version: the numbers given before the first wildcard. */
function parsePartial(text: string): number[] | undefined {
  if (text === "" || text === "*") return [];
  const parts = text.replace(/^v/, "").split(".");
  if (parts.length > 3) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    if (/^[xX*]$/.test(part)) break;
    const n = part.match(/^(\d+)(?:-.*)?$/);
    if (!n) return undefined;
    numbers.push(Number(n[1]));
  }
  return numbers;
}

function compare(a: Triple, b: number[]): number {
  for (let i = 0; i < b.length; i += 1) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Lowest version above every version that the prefix `p` covers. */
function bumpPrefix(p: number[]): number[] {
  if (p.length === 0) return [Number.POSITIVE_INFINITY];
  const next = p.slice();
  next[next.length - 1] = (next[next.length - 1] ?? 0) + 1;
  return next;
}

function matches(v: Triple, comparator: string): boolean {
  const match = comparator.match(/^(\^|~|>=|<=|>|<|=)?\s*(.*)$/);
  if (!match) return false;
  const op = match[1] ?? "";
  const p = parsePartial(match[2] ?? "");
  if (!p) return false;
  const full = p.length === 3;
  switch (op) {
    case "":
    case "=":
      return compare(v, p) === 0;
    case ">=":
      return compare(v, p) >= 0;
    case "<=":
      return full ? compare(v, p) <= 0 : compare(v, bumpPrefix(p)) < 0;
    case ">":
      return full ? compare(v, p) > 0 : compare(v, bumpPrefix(p)) >= 0;
    case "<":
      return compare(v, p) < 0;
    case "~":
      return compare(v, p) >= 0 && compare(v, bumpPrefix(p.slice(0, Math.max(1, Math.min(2, p.length))))) < 0;
    case "^": {
      // The left-most non-zero part is fixed.
      const fixed = p.findIndex((n) => n !== 0);
      const keep = fixed === -1 ? Math.max(1, p.length) : fixed + 1;
      return compare(v, p) >= 0 && compare(v, bumpPrefix(p.slice(0, keep))) < 0;
    }
    default:
      return false;
  }
}
