import type { LanguageCases } from "./cases";

export default {
  echo: `let () =
  let line = try input_line stdin with End_of_file -> "" in
  print_endline ("Hello, " ^ line ^ "!");
  let args = List.tl (Array.to_list Sys.argv) in
  print_endline (String.concat " " args);
  exit 3
`,
  broken: {
    source: `let greeting = "Hello"

let () = print_endline missing
`,
    line: 3,
  },
} satisfies LanguageCases;
