import type { LanguageCases } from "./cases";

export default {
  echo: `import std.array : join;
import std.stdio;
import std.string : chomp;

int main(string[] args)
{
    string line = readln().chomp;
    writeln("Hello, ", line, "!");
    writeln(args[1 .. $].join(" "));
    return 3;
}
`,
  broken: {
    source: `import std.stdio;

void main()
{
    writeln(missing);
}
`,
    line: 5,
  },
} satisfies LanguageCases;
