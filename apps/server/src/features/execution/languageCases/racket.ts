import type { LanguageCases } from "./cases";

export default {
  echo: `#lang racket/base
(require racket/string)
(define line (read-line))
(printf "Hello, ~a!\\n" line)
(displayln (string-join (vector->list (current-command-line-arguments)) " "))
(exit 3)
`,
  broken: { source: '#lang racket\n(displayln "a")\n(displayln "b"))\n', line: 3 },
} satisfies LanguageCases;
