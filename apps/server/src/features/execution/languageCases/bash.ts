import type { LanguageCases } from "./cases";

export default {
  echo: `read -r line
echo "Hello, $line!"
echo "$*"
exit 3
`,
  broken: { source: "echo a\nif then\n", line: 2 },
} satisfies LanguageCases;
