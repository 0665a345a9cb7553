import type { Plugin } from "prettier";
import { registerFormatter } from "../formatters";

/** How Prettier formats one kind of file: its parser and the plugins that parser and its embeds need. */
interface PrettierLanguage {
  parser: string;
  plugins: () => Promise<Plugin>[];
}

// Each plugin is its own chunk, fetched the first time a file of its kind is formatted; the
// editor route's JavaScript carries none of them. `estree` prints what babel and typescript parse.
const babel = () => import("prettier/plugins/babel");
const estree = () => import("prettier/plugins/estree");
const typescript = () => import("prettier/plugins/typescript");
const postcss = () => import("prettier/plugins/postcss");
const html = () => import("prettier/plugins/html");
const markdown = () => import("prettier/plugins/markdown");

const SCRIPT: PrettierLanguage = { parser: "babel", plugins: () => [babel(), estree()] };
const LANGUAGES = {
  javascript: SCRIPT,
  typescript: { parser: "typescript", plugins: () => [typescript(), estree()] },
  json: { parser: "json", plugins: () => [babel(), estree()] },
  css: { parser: "css", plugins: () => [postcss()] },
  scss: { parser: "scss", plugins: () => [postcss()] },
  less: { parser: "less", plugins: () => [postcss()] },
  // Scripts and styles inside a page are formatted too.
  html: { parser: "html", plugins: () => [html(), babel(), estree(), postcss()] },
  markdown: { parser: "markdown", plugins: () => [markdown()] },
} as const satisfies Record<string, PrettierLanguage>;

/** The file kind by extension, which wins over the editor's language (a .json file shows as JavaScript). */
const BY_EXTENSION: Readonly<Record<string, keyof typeof LANGUAGES>> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  json: "json",
  css: "css",
  scss: "scss",
  less: "less",
  html: "html",
  htm: "html",
  md: "markdown",
  markdown: "markdown",
};

/** How a file at `path` shown as `language` is formatted by Prettier, if it is. */
export function prettierLanguageOf(path: string, language: string): PrettierLanguage | undefined {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  const kind =
    BY_EXTENSION[extension] ?? (language in LANGUAGES ? (language as keyof typeof LANGUAGES) : null);
  return kind ? LANGUAGES[kind] : undefined;
}

/** A Prettier error as one line a person can act on (its code frame left out). */
export function prettierMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0]?.trim() || "the formatter failed";
}

/**
 * Prettier 3 for JavaScript, TypeScript, JSON, CSS, HTML and Markdown, with its defaults
 * (the project has no Prettier configuration to read). Throws with a readable message on a
 * syntax error.
 */
export function registerPrettier(): void {
  const format = async (text: string, path: string, language: string): Promise<string> => {
    const kind = prettierLanguageOf(path, language);
    if (!kind) throw new Error(`Prettier does not format ${path}`);
    const [prettier, ...plugins] = await Promise.all([import("prettier/standalone"), ...kind.plugins()]);
    try {
      return await prettier.format(text, { parser: kind.parser, plugins, filepath: path });
    } catch (error) {
      throw new Error(prettierMessage(error));
    }
  };
  for (const language of Object.keys(LANGUAGES)) {
    registerFormatter([language], (text, path) => format(text, path, language));
  }
}
