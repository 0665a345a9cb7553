/**
 * Real output of the toolchains on the development machine (gcc 12.2, javac/java 17, go 1.19,
 * rustc 1.95, tsc 4.8, esbuild 0.17, Python 3.11, Node 20, Ruby 3.1, PHP 8.2, Lua 5.4, Perl, Bash, Mono's
 * mcs) on small broken
 * programs in a folder mounted as /box, its paths rewritten to /box. Only the tests import it.
 */
export const FIXTURES = {
  /** gcc -Wall main.c (a warning, an error with its note, a warning) */
  gcc: `/box/src/main.c: In function ‘main’:
/box/src/main.c:3:13: warning: initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast [-Wint-conversion]
    3 |     int x = "hello";
      |             ^~~~~~~
/box/src/main.c:4:20: error: ‘y’ undeclared (first use in this function)
    4 |     printf("%d\\n", y);
      |                    ^
/box/src/main.c:4:20: note: each undeclared identifier is reported only once for each function it appears in
/box/src/main.c:3:9: warning: unused variable ‘x’ [-Wunused-variable]
    3 |     int x = "hello";
      |         ^
`,
  /** gcc src/main.c, run from /box with a relative path */
  gccRel: `src/main.c: In function ‘main’:
src/main.c:3:13: warning: initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast [-Wint-conversion]
    3 |     int x = "hello";
      |             ^~~~~~~
src/main.c:4:20: error: ‘y’ undeclared (first use in this function)
    4 |     printf("%d\\n", y);
      |                    ^
src/main.c:4:20: note: each undeclared identifier is reported only once for each function it appears in
`,
  /** gcc inc.c with an error in its own header util.h */
  gccHeader: `In file included from /box/src/inc.c:1:
/box/src/util.h: In function ‘twice’:
/box/src/util.h:1:32: error: expected ‘;’ before ‘}’ token
    1 | int twice(int x) { return x * 2 }
      |                                ^~
      |                                ;
`,
  /** g++ main.cpp */
  gpp: `/box/src/main.cpp: In function ‘int main()’:
/box/src/main.cpp:3:21: error: conversion from ‘int’ to non-scalar type ‘std::string’ {aka ‘std::__cxx11::basic_string<char>’} requested
    3 |     std::string s = 5;
      |                     ^
/box/src/main.cpp:4:18: error: ‘z’ was not declared in this scope
    4 |     std::cout << z << std::endl;
      |                  ^
`,
  /** javac Main.java */
  javac: `/box/src/Main.java:3: error: incompatible types: String cannot be converted to int
        int x = "hello";
                ^
/box/src/Main.java:4: error: cannot find symbol
        System.out.println(y);
                           ^
  symbol:   variable y
  location: class Main
2 errors
`,
  /** java Main: an exception thrown two frames deep */
  java: `Exception in thread "main" java.lang.IllegalStateException: boom
	at Main.fail(Main.java:3)
	at Main.main(Main.java:6)
`,
  /** go build main.go */
  go: `# command-line-arguments
src/main.go:6:14: cannot use "hello" (untyped string constant) as int value in variable declaration
src/main.go:7:14: undefined: y
`,
  /** a Go program indexing past the end of a slice */
  goPanic: `start
panic: runtime error: index out of range [3] with length 0

goroutine 1 [running]:
main.main()
	/box/gp/main.go:8 +0x5e
`,
  /** rustc /box/src/main.rs */
  rustc: `error[E0425]: cannot find value \`y\` in this scope
 --> /box/src/main.rs:3:20
  |
3 |     println!("{}", y);
  |                    ^
  |
help: a local variable with a similar name exists
  |
3 -     println!("{}", y);
3 +     println!("{}", x);
  |

error[E0308]: mismatched types
 --> /box/src/main.rs:2:18
  |
2 |     let x: i32 = "hello";
  |            ---   ^^^^^^^ expected \`i32\`, found \`&str\`
  |            |
  |            expected due to this

error: aborting due to 2 previous errors

Some errors have detailed explanations: E0308, E0425.
For more information about an error, try \`rustc --explain E0308\`.
`,
  /** rustc src/main.rs */
  rustcRel: `error[E0425]: cannot find value \`y\` in this scope
 --> src/main.rs:3:20
  |
3 |     println!("{}", y);
  |                    ^
  |
help: a local variable with a similar name exists
  |
3 -     println!("{}", y);
3 +     println!("{}", x);
  |

error[E0308]: mismatched types
 --> src/main.rs:2:18
  |
2 |     let x: i32 = "hello";
  |            ---   ^^^^^^^ expected \`i32\`, found \`&str\`
  |            |
  |            expected due to this

error: aborting due to 2 previous errors

Some errors have detailed explanations: E0308, E0425.
For more information about an error, try \`rustc --explain E0308\`.
`,
  /** a Rust program indexing past the end of a Vec (RUST_BACKTRACE=1) */
  rustPanic: `
thread 'main' (17542) panicked at rp/main.rs:3:21:
index out of bounds: the len is 0 but the index is 3
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_fmt
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:80:14
   2: core::panicking::panic_bounds_check
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs:271:5
   3: <usize as core::slice::index::SliceIndex<[T]>>::index
   4: <alloc::vec::Vec<T,A> as core::ops::index::Index<I>>::index
   5: main::main
   6: core::ops::function::FnOnce::call_once
note: Some details are omitted, run with \`RUST_BACKTRACE=full\` for a verbose backtrace.
`,
  /** tsc --noEmit src/main.ts */
  tsc: `src/main.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/main.ts(4,23): error TS2304: Cannot find name 'missing'.
`,
  /** esbuild src/bad.ts */
  esbuild: `✘ [ERROR] Unexpected ";"

    src/bad.ts:2:10:
      2 │ const b = ;
        ╵           ^

1 error
`,
  /** python3 main.py: a NameError two frames deep */
  py: `Traceback (most recent call last):
  File "/box/src/main.py", line 4, in <module>
    print(greet("x"))
          ^^^^^^^^^^
  File "/box/src/main.py", line 2, in greet
    return "hi " + nme
                   ^^^
NameError: name 'nme' is not defined. Did you mean: 'name'?
`,
  /** python3 syn.py: a SyntaxError */
  pySyn: `  File "/box/src/syn.py", line 2
    if x
        ^
SyntaxError: expected ':'
`,
  /** python3 stdlib.py: an error raised inside the standard library */
  pyStdlib: `Traceback (most recent call last):
  File "/box/src/stdlib.py", line 3, in <module>
    data = json.loads("{bad")
           ^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
`,
  /** node main.js: a ReferenceError */
  node: `/box/src/main.js:2
  return undefinedThing + 1;
  ^

ReferenceError: undefinedThing is not defined
    at f (/box/src/main.js:2:3)
    at Object.<anonymous> (/box/src/main.js:4:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`,
  /** node syn.js: a SyntaxError */
  nodeSyn: `/box/src/syn.js:2
const b = ;
          ^

SyntaxError: Unexpected token ';'
    at wrapSafe (node:internal/modules/cjs/loader:1464:18)
    at Module._compile (node:internal/modules/cjs/loader:1495:20)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`,
  /** node usesLib.js: an error thrown in another workspace file */
  nodeLib: `/box/src/lib.js:2
  if (!s) throw new TypeError("empty input");
          ^

TypeError: empty input
    at Object.parse (/box/src/lib.js:2:17)
    at Object.<anonymous> (/box/src/usesLib.js:3:5)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`,
  /** ruby main.rb: a NameError */
  ruby: `/box/src/main.rb:3:in \`greet': undefined local variable or method \`undefined_thing' for main:Object (NameError)

  undefined_thing
  ^^^^^^^^^^^^^^^
	from /box/src/main.rb:5:in \`<main>'
hi
`,
  /** ruby syn.rb: a syntax error */
  rubySyn: `/box/src/syn.rb:4: syntax error, unexpected \`end'
`,
  /** php main.php: a parse error */
  php: `PHP Parse error:  syntax error, unexpected token ";" in /box/src/main.php on line 3
`,
  /** php rt.php: an uncaught exception */
  phpRt: `PHP Fatal error:  Uncaught Exception: boom in /box/src/rt.php:3
Stack trace:
#0 /box/src/rt.php(5): f()
#1 {main}
  thrown in /box/src/rt.php on line 3
`,
  /** gcc -fdiagnostics-color=always main.c (what a run asking for colour prints) */
  gccColor: `\u001b[01m\u001b[K/box/src/main.c:\u001b[m\u001b[K In function ‘\u001b[01m\u001b[Kmain\u001b[m\u001b[K’:
\u001b[01m\u001b[K/box/src/main.c:3:13:\u001b[m\u001b[K \u001b[01;35m\u001b[Kwarning: \u001b[m\u001b[Kinitialization of ‘\u001b[01m\u001b[Kint\u001b[m\u001b[K’ from ‘\u001b[01m\u001b[Kchar *\u001b[m\u001b[K’ makes integer from pointer without a cast [\u001b[01;35m\u001b[K-Wint-conversion\u001b[m\u001b[K]
    3 |     int x = \u001b[01;35m\u001b[K"hello"\u001b[m\u001b[K;
      |             \u001b[01;35m\u001b[K^~~~~~~\u001b[m\u001b[K
\u001b[01m\u001b[K/box/src/main.c:4:20:\u001b[m\u001b[K \u001b[01;31m\u001b[Kerror: \u001b[m\u001b[K‘\u001b[01m\u001b[Ky\u001b[m\u001b[K’ undeclared (first use in this function)
    4 |     printf("%d\\n", \u001b[01;31m\u001b[Ky\u001b[m\u001b[K);
      |                    \u001b[01;31m\u001b[K^\u001b[m\u001b[K
\u001b[01m\u001b[K/box/src/main.c:4:20:\u001b[m\u001b[K \u001b[01;36m\u001b[Knote: \u001b[m\u001b[Keach undeclared identifier is reported only once for each function it appears in
`,
  /** rustc --color always src/main.rs (its first error) */
  rustcColor: `\u001b[1m\u001b[91merror[E0425]\u001b[0m\u001b[1m: cannot find value \`y\` in this scope\u001b[0m
 \u001b[1m\u001b[94m--> \u001b[0msrc/main.rs:3:20
  \u001b[1m\u001b[94m|\u001b[0m
\u001b[1m\u001b[94m3\u001b[0m \u001b[1m\u001b[94m|\u001b[0m     println!("{}", y);
  \u001b[1m\u001b[94m|\u001b[0m                    \u001b[1m\u001b[91m^\u001b[0m
`,
  /** node logged.js: a caught error logged with console.error, then an uncaught one */
  nodeLogged: `SyntaxError: Expected property name or '}' in JSON at position 1
    at JSON.parse (<anonymous>)
    at Object.<anonymous> (/box/src/logged.js:2:8)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49
/box/src/logged.js:7
console.log(list.length);
                 ^

TypeError: Cannot read properties of null (reading 'length')
    at Object.<anonymous> (/box/src/logged.js:7:18)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2
`,
  /** node rejected.mjs: an ES module whose top-level await rejects */
  nodeEsm: `file:///box/src/rejected.mjs:2
  throw new Error("not found");
        ^

Error: not found
    at load (file:///box/src/rejected.mjs:2:9)
    at file:///box/src/rejected.mjs:4:7
    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)
    at async ModuleLoader.import (node:internal/modules/esm/loader:606:24)
    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5)

Node.js v20.20.2
`,
  /** python3 -W always warn.py: a DeprecationWarning, then a ZeroDivisionError */
  pyWarning: `/box/src/warn.py:3: DeprecationWarning: old API
  warnings.warn("old API", DeprecationWarning, stacklevel=1)
Traceback (most recent call last):
  File "/box/src/warn.py", line 4, in <module>
    print(1 / 0)
          ~~^~~
ZeroDivisionError: division by zero
`,
  /** ruby -w warn.rb: a warning, then a NoMethodError */
  rubyWarning: `/box/src/warn.rb:2: warning: assigned but unused variable - x
(none):2: warning: assigned but unused variable - x
/box/src/warn.rb:4:in \`<main>': undefined method \`frist' for [1, 2]:Array (NoMethodError)

puts [1, 2].frist
           ^^^^^^
Did you mean?  first
`,
  /** lua5.4 main.lua: indexing nil two frames deep */
  lua: `lua5.4: /box/src/main.lua:2: attempt to index a nil value (local 't')
stack traceback:
	/box/src/main.lua:2: in local 'greet'
	/box/src/main.lua:4: in main chunk
	[C]: in ?
`,
  /** lua5.4 syn.lua: a syntax error */
  luaSyntax: `lua5.4: /box/src/syn.lua:4: 'end' expected (to close 'if' at line 2) near <eof>
`,
  /** perl main.pl: a compile error under use strict */
  perl: `Global symbol "$y" requires explicit package name (did you forget to declare "my $y"?) at /box/src/main.pl line 5.
Execution of /box/src/main.pl aborted due to compilation errors.
`,
  /** perl rt.pl: a division by zero */
  perlRuntime: `Illegal division by zero at /box/src/rt.pl line 3.
`,
  /** bash main.sh: a missing command, then a syntax error */
  bash: `start
/box/src/main.sh: line 3: frobnicate: command not found
/box/src/main.sh: line 5: syntax error: unexpected end of file
`,
  /** mcs Main.cs (Mono's C# compiler) */
  mcs: `/box/src/Main.cs(3,13): error CS0029: Cannot implicitly convert type \`string' to \`int'
Compilation failed: 1 error(s), 0 warnings
`,
} as const;
