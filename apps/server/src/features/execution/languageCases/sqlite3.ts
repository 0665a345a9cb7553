import type { LanguageCases } from "./cases";

export default {
  echo: `CREATE TABLE input (line TEXT);
.import /dev/stdin input
SELECT 'Hello, ' || line || '!' FROM input;
SELECT group_concat(arg, ' ') FROM (SELECT arg FROM argv ORDER BY rowid);
.exit 3
`,
  broken: { source: "SELECT 1;\nSELEC 2;\n", line: 2 },
} satisfies LanguageCases;
