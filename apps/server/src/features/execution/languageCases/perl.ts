import type { LanguageCases } from "./cases";

export default {
  echo: `my $line = <STDIN>;
chomp $line;
print "Hello, $line!\\n";
print join(" ", @ARGV), "\\n";
exit 3;
`,
  broken: { source: 'print "a\\n";\nmy $x = ;\n', line: 2 },
} satisfies LanguageCases;
