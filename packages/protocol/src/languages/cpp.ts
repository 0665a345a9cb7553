import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** C++ on Debian's G++ (C++17 by default): every source of the entry's folder is compiled into one program. */
export const cpp = {
  id: "c++",
  name: "C++",
  aliases: ["cpp", "g++"],
  extensions: ["cpp", "cc", "cxx", "hpp", "hh", "hxx"],
  // Headers are included, not compiled (a `.h` opens as C, and is included all the same).
  sourceExtensions: ["cpp", "cc", "cxx"],
  mainFile: "main.cpp",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\n#include <iostream>\n\nint main() {\n  std::cout << "Hello, world!" << std::endl;\n  return 0;\n}\n',
  monaco: "cpp",
  iconColor: "#f34b7d",
  debianPackages: ["g++", "clangd"],
  install: "default",
  compile: {
    command: "g++",
    args: ["-Wall", "-o", "{out}/main", "{sources}"],
    colourArgs: ["-fdiagnostics-color=always"],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "g++", args: ["-dumpfullversion"], parse: coerceVersion },
} as const satisfies LanguageRecord;
