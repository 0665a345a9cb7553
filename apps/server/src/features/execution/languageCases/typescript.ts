import type { LanguageCases } from "./cases";

export default {
  echo: `import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin });
let greeted = false;

function greet(line: string): void {
  if (greeted) return;
  greeted = true;
  console.log(\`Hello, \${line}!\`);
  console.log(process.argv.slice(2).join(" "));
  process.exit(3);
}

lines.once("line", greet);
lines.once("close", () => greet(""));
`,
  broken: {
    source: `const greeting: string = "Hello";
const broken = ;
console.log(greeting, broken);
`,
    line: 2,
  },
} satisfies LanguageCases;
