import type { LanguageCases } from "./cases";

export default {
  echo: `; Reads a line, greets it, prints the arguments, exits with 3 (Linux x86-64 system calls).
        global  _start

        section .bss
line:   resb    256

        section .data
hello:  db      "Hello, "
helloLength equ $ - hello
bang:   db      "!", 10
space:  db      " "
newline: db     10

        section .text
_start: xor     eax, eax                ; read(0, line, 256)
        xor     edi, edi
        lea     rsi, [rel line]
        mov     edx, 256
        syscall
        test    rax, rax
        jg      .measure
        xor     eax, eax
.measure:
        xor     ecx, ecx                ; rcx: the line's length, up to its newline
.scan:  cmp     rcx, rax
        jge     .greet
        cmp     byte [rsi + rcx], 10
        je      .greet
        inc     rcx
        jmp     .scan
.greet: mov     r12, rcx
        lea     rsi, [rel hello]
        mov     edx, helloLength
        call    write
        lea     rsi, [rel line]
        mov     rdx, r12
        call    write
        lea     rsi, [rel bang]
        mov     edx, 2
        call    write
        mov     r13, [rsp]              ; argc; argv[i] is at rsp + 8 + 8 * i
        mov     r14, 1
.args:  cmp     r14, r13
        jge     .done
        cmp     r14, 1
        je      .arg
        lea     rsi, [rel space]
        mov     edx, 1
        call    write
.arg:   mov     rsi, [rsp + 8 * r14 + 8]
        xor     edx, edx
.length:
        cmp     byte [rsi + rdx], 0
        je      .print
        inc     rdx
        jmp     .length
.print: call    write
        inc     r14
        jmp     .args
.done:  lea     rsi, [rel newline]
        mov     edx, 1
        call    write
        mov     eax, 60                 ; exit(3)
        mov     edi, 3
        syscall

write:  mov     eax, 1                  ; write(1, rsi, rdx)
        mov     edi, 1
        syscall
        ret
`,
  broken: {
    source: `        global  _start
        section .text
_start: movv    eax, 60
        xor     edi, edi
        syscall
`,
    line: 3,
  },
} satisfies LanguageCases;
