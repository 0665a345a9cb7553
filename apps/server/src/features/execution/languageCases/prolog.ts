import type { LanguageCases } from "./cases";

export default {
  echo: `:- initialization(main, main).

main :-
    read_line_to_string(user_input, Line),
    format("Hello, ~w!~n", [Line]),
    current_prolog_flag(argv, Args),
    atomic_list_concat(Args, ' ', Joined),
    format("~w~n", [Joined]),
    halt(3).
`,
  broken: { source: ":- initialization(main, main).\nmain :- writeln(a).\nfoo :- bar baz.\n", line: 3 },
} satisfies LanguageCases;
