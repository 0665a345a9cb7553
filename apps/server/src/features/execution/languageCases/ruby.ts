import type { LanguageCases } from "./cases";

export default {
  echo: `line = $stdin.gets.chomp
puts "Hello, #{line}!"
puts ARGV.join(" ")
exit 3
`,
  broken: { source: 'puts "a"\nputs 1 +* 2\n', line: 2 },
} satisfies LanguageCases;
