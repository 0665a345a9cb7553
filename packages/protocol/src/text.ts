/** The length of a string in UTF-8 bytes (path and name limits are in bytes, as file systems count). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * The path (`files.0.name`) of a string, value or key, in a parsed JSON value that holds a
 * NUL character, or undefined when there is none. PostgreSQL's text cannot store NUL,
 * so inbound text with one is refused before it reaches a query. Iterative, with the path
 * kept as links to the parent: a body nested thousands deep costs neither stack nor copies.
 */
export function findNul(value: unknown): string | undefined {
  interface Step {
    value: unknown;
    key: string;
    parent: Step | undefined;
  }
  const pathOf = (step: Step | undefined, last?: string): string => {
    const keys = last === undefined ? [] : [last];
    for (let s = step; s?.parent; s = s.parent) keys.push(s.key);
    return keys.reverse().join(".");
  };
  const pending: Step[] = [{ value, key: "", parent: undefined }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    if (typeof step.value === "string") {
      if (step.value.includes("\0")) return pathOf(step);
    } else if (typeof step.value === "object" && step.value !== null) {
      for (const [key, child] of Object.entries(step.value)) {
        if (key.includes("\0")) return pathOf(step, key);
        pending.push({ value: child, key, parent: step });
      }
    }
  }
  return undefined;
}

/** Why a value holding NUL at `path` (from findNul; "" for the value itself) is refused. */
export const nulRefusal = (path: string, whole: string) =>
  `${path || whole} may not contain the NUL character (\\u0000)`;
