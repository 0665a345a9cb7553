import type { LanguageCases } from "./cases";

export default {
  echo: `<?php
$line = trim(fgets(STDIN));
echo "Hello, $line!\\n";
echo implode(" ", array_slice($argv, 1)), "\\n";
exit(3);
`,
  broken: { source: '<?php\necho "a";\necho "b" "c";\n', line: 3 },
} satisfies LanguageCases;
