/**
 * The value of one sample in Prometheus's text format: the series `name` whose labels are
 * exactly `labels`; undefined when no line has them. Values are plain numbers here (no
 * timestamps), as prom-client writes them.
 */
export function sampleOf(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(",");
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, key, value]) => `${key}="${value}"`)
      .sort()
      .join(",");
    if (given === wanted) return Number(match[3]);
  }
  return undefined;
}
