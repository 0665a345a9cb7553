import type { LanguageCases } from "./cases";

export default {
  echo: `const [line] = require("node:fs").readFileSync(0, "utf8").split("\\n");
console.log(\`Hello, \${line}!\`);
console.log(process.argv.slice(2).join(" "));
process.exit(3);
`,
  broken: { source: 'console.log("a");\nlet x = ;\n', line: 2 },
} satisfies LanguageCases;
