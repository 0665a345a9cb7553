import type { LanguageCases } from "./cases";

export default {
  echo: `line <- readLines(file("stdin"), n = 1)
cat("Hello, ", line, "!\\n", sep = "")
cat(paste(commandArgs(trailingOnly = TRUE), collapse = " "), "\\n", sep = "")
quit(status = 3)
`,
  broken: { source: 'cat("a\\n")\nx <- 1 +* 2\n', line: 2 },
} satisfies LanguageCases;
