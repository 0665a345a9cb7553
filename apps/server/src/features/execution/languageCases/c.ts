import type { LanguageCases } from "./cases";

export default {
  echo: `#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  char line[256] = "";
  if (fgets(line, sizeof line, stdin)) line[strcspn(line, "\\r\\n")] = '\\0';
  printf("Hello, %s!\\n", line);
  for (int i = 1; i < argc; i++) printf(i > 1 ? " %s" : "%s", argv[i]);
  printf("\\n");
  return 3;
}
`,
  broken: {
    source: `#include <stdio.h>

int main(void) {
  printf("%d\\n", missing);
  return 0;
}
`,
    line: 4,
  },
} satisfies LanguageCases;
