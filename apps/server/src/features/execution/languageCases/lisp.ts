import type { LanguageCases } from "./cases";

export default {
  // Under --script, *posix-argv* is the program's name and then its arguments.
  echo: `(let ((line (read-line)))
  (format t "Hello, ~a!~%" line)
  (format t "~{~a~^ ~}~%" (rest sb-ext:*posix-argv*))
  (finish-output)
  (sb-ext:exit :code 3))
`,
  broken: { source: '(write-line "a")\n(write-line "b"))\n', line: 2 },
} satisfies LanguageCases;
