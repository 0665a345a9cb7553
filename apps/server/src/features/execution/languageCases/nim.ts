import type { LanguageCases } from "./cases";

export default {
  echo: `import std/os
import std/strutils

var line = ""
try:
  line = readLine(stdin)
except EOFError:
  discard
echo "Hello, ", line, "!"
echo commandLineParams().join(" ")
quit(3)
`,
  broken: {
    source: `let greeting = "Hello"
echo greeting
echo missing
`,
    line: 3,
  },
} satisfies LanguageCases;
