import type { LanguageCases } from "./cases";

export default {
  echo: `line = IO.gets("") |> String.trim_trailing("\\n")
IO.puts("Hello, #{line}!")
IO.puts(Enum.join(System.argv(), " "))
System.halt(3)
`,
  broken: { source: 'IO.puts("a")\nx = 1 +* 2\n', line: 2 },
} satisfies LanguageCases;
