#!/usr/bin/env node
// Writes the self-hosted fonts of the web app: src/fonts/*.woff2 and src/styles/fonts.css.
// Run with `npm run fonts -w apps/web` (which then formats the CSS) after changing the list
// below or the @fontsource packages.
//
// Each face is cut from @fontsource's "latin" file into two files that share its unicode-range
// between them: "core" holds what our pages show (ASCII and the punctuation of our copy) and
// is what a page downloads; "rest" holds the remaining Latin-1 letters and symbols and is
// downloaded only when a page shows one (an accented name, say). Other scripts (Cyrillic,
// Greek, Vietnamese, Latin Extended) fall back to the system font of --font-sans/--font-mono.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import subsetFont from "subset-font";

const require = createRequire(import.meta.url);
const web = path.resolve(import.meta.dirname, "..");
const fontsDir = path.join(web, "src/fonts");
const cssFile = path.join(web, "src/styles/fonts.css");

const FACES = [
  { family: "Inter", pkg: "@fontsource/inter", name: "inter", weights: [400, 500, 600, 700] },
  { family: "JetBrains Mono", pkg: "@fontsource/jetbrains-mono", name: "jetbrains-mono", weights: [400] },
];

// Besides printable ASCII: the non-ASCII characters of our copy (no-break space, § © · ×,
// dashes, curly quotes, bullet, ellipsis, the carousel's ‹ ›, minus).
const CORE_EXTRA = [0xa0, 0xa7, 0xa9, 0xb7, 0xd7, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d];
CORE_EXTRA.push(0x2022, 0x2026, 0x2039, 0x203a, 0x2212);
const CORE = new Set([...range(0x20, 0x7e), ...CORE_EXTRA]);

function range(from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Code points of a CSS unicode-range ("U+0000-00FF,U+0131"). */
function parseRange(text) {
  return text.split(",").flatMap((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, "").split("-");
    return range(Number.parseInt(from, 16), Number.parseInt(to, 16));
  });
}

/** A CSS unicode-range for sorted code points, runs collapsed. */
function formatRange(points) {
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, "0");
  const parts = [];
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === points[j] + 1) j++;
    parts.push(points[i] === points[j] ? `U+${hex(points[i])}` : `U+${hex(points[i])}-${hex(points[j])}`);
    i = j + 1;
  }
  return parts.join(",");
}

/** @fontsource's latin file of one weight and the unicode-range it declares for it. */
function latinSource(pkg, name, weight) {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  const css = fs.readFileSync(path.join(dir, `${weight}.css`), "utf8");
  const file = `${name}-latin-${weight}-normal.woff2`;
  const rule = css.split("@font-face").find((block) => block.includes(`/${file}`));
  const unicodeRange = rule?.match(/unicode-range:\s*([^;]+);/)?.[1];
  if (!unicodeRange) throw new Error(`no latin unicode-range for ${file}`);
  return { font: fs.readFileSync(path.join(dir, "files", file)), points: parseRange(unicodeRange) };
}

fs.rmSync(fontsDir, { recursive: true, force: true });
fs.mkdirSync(fontsDir, { recursive: true });
const rules = [];
let bytes = 0;
for (const face of FACES) {
  for (const weight of face.weights) {
    const { font, points } = latinSource(face.pkg, face.name, weight);
    const parts = {
      core: points.filter((p) => CORE.has(p)),
      // Control characters (C0, DEL, C1) have no glyphs to show.
      rest: points.filter((p) => !CORE.has(p) && p > 0x20 && (p < 0x7f || p > 0x9f)),
    };
    for (const [part, partPoints] of Object.entries(parts)) {
      const text = String.fromCodePoint(...partPoints);
      const subset = await subsetFont(font, text, { targetFormat: "woff2" });
      const file = `${face.name}-${weight}-${part}.woff2`;
      fs.writeFileSync(path.join(fontsDir, file), subset);
      bytes += part === "core" ? subset.length : 0;
      rules.push(
        [
          "@font-face {",
          `  font-family: "${face.family}";`,
          "  font-style: normal;",
          "  font-display: swap;",
          `  font-weight: ${weight};`,
          `  src: url("../fonts/${file}") format("woff2");`,
          `  unicode-range: ${formatRange(partPoints)};`,
          "}",
        ].join("\n"),
      );
    }
  }
}

const header = [
  "/* Written by scripts/subsetFonts.mjs from @fontsource's Inter and JetBrains Mono (SIL OFL 1.1):",
  "   per weight, a core file (ASCII and our copy's punctuation) and the rest of Latin-1. */",
].join("\n");
fs.writeFileSync(cssFile, `${header}\n${rules.join("\n\n")}\n`);
console.log(`fonts written: ${rules.length} faces, core files ${Math.round(bytes / 1024)} KiB in all`);
