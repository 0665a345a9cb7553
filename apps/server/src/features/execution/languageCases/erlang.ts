import type { LanguageCases } from "./cases";

export default {
  // escript takes the first line for a `#!` line, whatever it is (see the record).
  echo: `#!/usr/bin/env escript
main(Args) ->
    Line = string:trim(io:get_line(""), trailing, "\\n"),
    io:format("Hello, ~s!~n", [Line]),
    io:format("~s~n", [lists:join(" ", Args)]),
    halt(3).
`,
  broken: { source: '#!/usr/bin/env escript\nmain(_) ->\n    io:format("a~n") io.\n', line: 3 },
} satisfies LanguageCases;
