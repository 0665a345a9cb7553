/** What every language must prove in the real sandbox (see languages.int.test.ts). */
export interface LanguageCases {
  /** Source of the main file: reads one line of stdin, prints "Hello, <line>!", then its arguments joined by single spaces on a second line, then exits with code 3. */
  echo: string;
  /** Source of the main file with a syntax (or compile) error on line `line` (1-based), which the error output names. */
  broken: { source: string; line: number };
}
