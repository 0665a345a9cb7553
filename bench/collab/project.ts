import { between, seededRandom } from "./random";

/** A file to create in a session's workspace. */
export interface ProjectFile {
  path: string;
  content: string;
}

const FEATURES = ["auth", "billing", "search", "editor", "projects", "settings", "chat", "reports"];
const FEATURE_FILES = ["index.js", "service.js", "store.js", "api.js", "hooks.js", "routes.js"];
const NOUNS = ["user", "session", "item", "order", "invoice", "token", "query", "cache", "event", "file"];
const VERBS = ["load", "save", "parse", "format", "validate", "render", "fetch", "merge", "sort", "find"];
const COMPONENTS = [
  "Button",
  "Dialog",
  "Tabs",
  "Table",
  "Toolbar",
  "Sidebar",
  "Avatar",
  "Badge",
  "Card",
  "Menu",
  "Tooltip",
  "Toast",
  "Select",
  "Input",
  "Checkbox",
  "Spinner",
  "Pager",
  "Breadcrumbs",
];

/**
 * A deterministic project of `count` text files totalling `totalBytes` (ASCII, so bytes ==
 * characters), shaped like a small web app: components, feature folders, a lib with nested
 * utils, server routes, tests and docs, nested up to five levels. Sizes vary (a few hundred
 * bytes to tens of kB) the way real files do; the content is code, comments and markdown
 * made of words, so it compresses and diffs like source rather than random bytes.
 */
export function generateProject(count: number, totalBytes: number, seed = 11): ProjectFile[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[between(random, 0, list.length - 1)] as T;
  const paths = new Set<string>();
  const candidates: (() => string)[] = [
    () => `src/components/${pick(COMPONENTS)}${between(random, 1, 9)}.jsx`,
    () => `src/components/forms/${pick(COMPONENTS)}Field${between(random, 1, 9)}.jsx`,
    () => `src/features/${pick(FEATURES)}/${pick(FEATURE_FILES)}`,
    () => `src/features/${pick(FEATURES)}/components/${pick(COMPONENTS)}.jsx`,
    () => `src/lib/${pick(VERBS)}${capitalise(pick(NOUNS))}.js`,
    () => `src/lib/utils/${pick(NOUNS)}/${pick(VERBS)}.js`,
    () => `server/routes/${pick(NOUNS)}s.js`,
    () => `server/db/migrations/${String(between(random, 1, 999)).padStart(4, "0")}_${pick(NOUNS)}.js`,
    () => `tests/unit/${pick(FEATURES)}/${pick(VERBS)}${capitalise(pick(NOUNS))}.test.js`,
    () => `docs/${pick(FEATURES)}/${pick(NOUNS)}.md`,
    () => `styles/${pick(COMPONENTS).toLowerCase()}.css`,
  ];
  while (paths.size < count) paths.add(pick(candidates)());
  // Log-normal-ish weights, scaled to the total; every file gets at least 120 bytes.
  const weights = [...paths].map(() => Math.exp(1.1 * (random() + random() + random() - 1.5) * 2));
  const scale = (totalBytes - 120 * count) / weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => 120 + Math.floor(w * scale));
  sizes[0] = (sizes[0] as number) + totalBytes - sizes.reduce((a, b) => a + b, 0);
  return [...paths].map((path, i) => ({ path, content: fileContent(path, sizes[i] as number, random) }));
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function fileContent(path: string, bytes: number, random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[between(random, 0, list.length - 1)] as T;
  const block = path.endsWith(".md")
    ? () =>
        `## ${capitalise(pick(VERBS))} a ${pick(NOUNS)}\n\nTo ${pick(VERBS)} a ${pick(NOUNS)}, call \`${pick(VERBS)}${capitalise(pick(NOUNS))}\` with the ${pick(NOUNS)} id. It returns the ${pick(NOUNS)} or \`null\`.\n\n`
    : path.endsWith(".css")
      ? () =>
          `.${pick(NOUNS)}-${pick(VERBS)} {\n  display: flex;\n  gap: ${between(random, 1, 16)}px;\n  color: #${between(random, 0x100000, 0xffffff).toString(16)};\n}\n\n`
      : () => {
          const noun = pick(NOUNS);
          const verb = pick(VERBS);
          return [
            `/** ${capitalise(verb)}s a ${noun} and returns the result, or null when there is none. */`,
            `export async function ${verb}${capitalise(noun)}(${noun}Id, options = {}) {`,
            `  const ${noun} = await ${pick(VERBS)}${capitalise(pick(NOUNS))}(${noun}Id);`,
            `  if (!${noun}) return null;`,
            `  for (const key of Object.keys(options)) {`,
            `    if (options[key] === undefined) continue;`,
            `    ${noun}[key] = options[key];`,
            "  }",
            `  return { ...${noun}, updatedAt: Date.now(), size: ${between(random, 1, 4096)} };`,
            "}",
            "",
            "",
          ].join("\n");
        };
  const header = path.endsWith(".md")
    ? `# ${path}\n\n`
    : path.endsWith(".css")
      ? ""
      : `import { ${pick(VERBS)}${capitalise(pick(NOUNS))} } from "./${pick(NOUNS)}";\n\n`;
  let content = header;
  while (content.length < bytes) content += block();
  return `${content.slice(0, Math.max(0, bytes - 1))}\n`;
}
