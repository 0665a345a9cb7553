import type { LanguageCases } from "./cases";

export default {
  echo: `program Main;

var
  line: string;
  i: integer;

begin
  line := '';
  if not eof then
    readln(line);
  writeln('Hello, ', line, '!');
  for i := 1 to ParamCount do
  begin
    if i > 1 then
      write(' ');
    write(ParamStr(i));
  end;
  writeln;
  halt(3);
end.
`,
  broken: {
    source: `program Main;

begin
  writeln(missing);
end.
`,
    line: 4,
  },
} satisfies LanguageCases;
