import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EDITOR_BACKGROUND, EDITOR_THEME_DATA } from "./editorTheme";

/** WCAG's relative luminance of `#RRGGBB`. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

/** vs-dark's token rules with a colour, read from Monaco's own file. */
function vsDarkRules(): { token: string; foreground: string }[] {
  const require = createRequire(import.meta.url);
  const editorApi = require.resolve("monaco-editor/editor/editor.api");
  const file = path.join(path.dirname(editorApi), "standalone/common/themes.js");
  const source = fs.readFileSync(file, "utf8");
  const block = source.slice(source.indexOf("const vs_dark"), source.indexOf("const hc_black"));
  return [...block.matchAll(/token: '([^']*)', foreground: '([0-9A-Fa-f]{6})'/g)].map((m) => ({
    token: m[1] ?? "",
    foreground: m[2] ?? "",
  }));
}

describe("the editor's theme", () => {
  it("draws every token colour of vs-dark at 4.5:1 or more on the editor's background", () => {
    const rules = vsDarkRules();
    expect(rules.length).toBeGreaterThan(20);
    const ours = new Map(EDITOR_THEME_DATA.rules.map((rule) => [rule.token, rule.foreground]));
    const faint = rules
      .map(({ token, foreground }) => ({ token, color: `#${ours.get(token) ?? foreground}` }))
      .filter(({ color }) => contrast(color, EDITOR_BACKGROUND) < 4.5);
    expect(faint).toEqual([]);
  });

  it("measures contrast as WCAG does", () => {
    expect(contrast("#FFFFFF", "#000000")).toBeCloseTo(21, 5);
    expect(contrast("#608B4E", EDITOR_BACKGROUND)).toBeLessThan(4.5);
  });
});
