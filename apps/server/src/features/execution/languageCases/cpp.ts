import type { LanguageCases } from "./cases";

export default {
  echo: `#include <iostream>
#include <string>

int main(int argc, char **argv) {
  std::string line;
  std::getline(std::cin, line);
  if (!line.empty() && line.back() == '\\r') line.pop_back();
  std::cout << "Hello, " << line << "!\\n";
  for (int i = 1; i < argc; i++) std::cout << (i > 1 ? " " : "") << argv[i];
  std::cout << "\\n";
  return 3;
}
`,
  broken: {
    source: `#include <iostream>

int main() {
  std::cout << missing << std::endl;
  return 0;
}
`,
    line: 4,
  },
} satisfies LanguageCases;
