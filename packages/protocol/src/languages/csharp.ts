import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** C# on Debian's Mono (there is no .NET SDK in Debian): every `.cs` of the entry's folder into one program. */
export const csharp = {
  id: "csharp",
  name: "C#",
  aliases: ["mono", "mono-csharp", "mono-c#", "mono-cs", "c#", "cs"],
  runtime: "mono",
  extensions: ["cs"],
  mainFile: "main.cs",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\nusing System;\n\nclass Program\n{\n    static void Main()\n    {\n        Console.WriteLine("Hello, world!");\n    }\n}\n',
  monaco: "csharp",
  iconColor: "#178600",
  debianPackages: ["mono-mcs", "mono-runtime"],
  install: "default",
  // Mono finds its native half (file I/O included) through the DLL map in /etc/mono/config.
  systemPaths: ["/etc/mono"],
  compile: { command: "mcs", args: ["-out:{out}/main.exe", "{sources}"] },
  run: { command: "mono", args: ["{out}/main.exe"] },
  version: { command: "mcs", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
