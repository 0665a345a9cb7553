import type { LanguageCases } from "./cases";

export default {
  echo: `use std::io::BufRead;

fn main() {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).unwrap();
    println!("Hello, {}!", line.trim_end_matches(|c: char| c == '\\r' || c == '\\n'));
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!("{}", args.join(" "));
    std::process::exit(3);
}
`,
  broken: {
    source: `fn main() {
    let x: i32 = 1;
    println!("{}", missing + x);
}
`,
    line: 3,
  },
} satisfies LanguageCases;
