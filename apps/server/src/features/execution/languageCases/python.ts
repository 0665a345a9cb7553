import type { LanguageCases } from "./cases";

export default {
  echo: `import sys
line = input()
print(f"Hello, {line}!")
print(" ".join(sys.argv[1:]))
sys.exit(3)
`,
  broken: { source: 'print("a")\nx = = 2\n', line: 2 },
} satisfies LanguageCases;
