import type { LanguageCases } from "./cases";

export default {
  echo: `using System;

class Program
{
    static int Main(string[] args)
    {
        string line = Console.ReadLine() ?? "";
        Console.WriteLine("Hello, " + line + "!");
        Console.WriteLine(string.Join(" ", args));
        return 3;
    }
}
`,
  broken: {
    source: `using System;

class Program
{
    static void Main()
    {
        Console.WriteLine(missing);
    }
}
`,
    line: 7,
  },
} satisfies LanguageCases;
