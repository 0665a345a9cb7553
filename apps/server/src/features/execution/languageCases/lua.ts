import type { LanguageCases } from "./cases";

export default {
  echo: `local line = io.read("l")
print("Hello, " .. line .. "!")
print(table.concat(arg, " "))
os.exit(3)
`,
  broken: { source: 'print("a")\nlocal x = = 1\n', line: 2 },
} satisfies LanguageCases;
