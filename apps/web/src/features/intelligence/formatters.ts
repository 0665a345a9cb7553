/**
 * Formats a whole file's text. It returns the formatted text (the caller applies only what
 * changed, as one shared edit) or throws with a message a person can read (a syntax error).
 */
export type Formatter = (text: string, path: string) => Promise<string>;

const formatters = new Map<string, Formatter>();

/** Declares the formatter of some Monaco languages (Prettier's, Ruff's). */
export function registerFormatter(languages: readonly string[], format: Formatter): void {
  for (const language of languages) formatters.set(language, format);
}

/** The formatter of a Monaco language, if there is one. */
export function formatterFor(language: string): Formatter | undefined {
  return formatters.get(language);
}
