import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** x86-64 (or, for `int 0x80` programs, i386) assembly on Debian's NASM, linked by binutils' ld into a static program without libc. */
export const nasm = {
  id: "nasm",
  name: "Assembly (NASM)",
  aliases: ["nasm64"],
  extensions: ["asm", "nasm"],
  mainFile: "main.asm",
  starter:
    '; Welcome to Ensemble: edit together, run, review.\n        global  _start\n\n        section .data\nmessage: db     "Hello, world!", 10\nlength  equ     $ - message\n\n        section .text\n_start: mov     eax, 1                  ; write(1, message, length)\n        mov     edi, 1\n        lea     rsi, [rel message]\n        mov     edx, length\n        syscall\n        mov     eax, 60                 ; exit(0)\n        xor     edi, edi\n        syscall\n',
  // Monaco has no x86 assembly grammar.
  monaco: "plaintext",
  iconColor: "#6e4c13",
  debianPackages: ["nasm", "binutils"],
  install: "optional",
  // Two tools, one stage, in a shell ($1 is {out}, $2 the entry). Piston's `nasm` is 32-bit
  // x86 and its `nasm64` x86-64, but a request's alias does not reach the sandbox: a program
  // that makes Linux's 32-bit system calls (`int 0x80`) and never `syscall` is built for i386,
  // any other for x86-64.
  compile: {
    command: "sh",
    args: [
      "-c",
      `if grep -Eiq '^[^;]*\\bint[[:space:]]+(0x80|80h)\\b' "$2" && ! grep -Eiq '^[^;]*\\bsyscall\\b' "$2"; then
  nasm -f elf32 -o /tmp/main.o "$2" || exit
  exec ld -m elf_i386 -o "$1/main" /tmp/main.o
fi
nasm -f elf64 -o /tmp/main.o "$2" || exit
exec ld -m elf_x86_64 -o "$1/main" /tmp/main.o`,
      "nasm",
      "{out}",
      "{file}",
    ],
  },
  run: { command: "{out}/main", args: [] },
  version: { command: "nasm", args: ["-v"], parse: coerceVersion },
} as const satisfies LanguageRecord;
