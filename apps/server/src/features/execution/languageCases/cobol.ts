import type { LanguageCases } from "./cases";

export default {
  echo: `       IDENTIFICATION DIVISION.
       PROGRAM-ID. MAIN.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-LINE PIC X(256) VALUE SPACES.
       01 WS-ARGS PIC X(256) VALUE SPACES.
       PROCEDURE DIVISION.
           ACCEPT WS-LINE
           ACCEPT WS-ARGS FROM COMMAND-LINE
           DISPLAY "Hello, " FUNCTION TRIM(WS-LINE) "!"
           DISPLAY FUNCTION TRIM(WS-ARGS)
           MOVE 3 TO RETURN-CODE
           STOP RUN.
`,
  broken: {
    source: `       IDENTIFICATION DIVISION.
       PROGRAM-ID. MAIN.
       PROCEDURE DIVISION.
           DISPLAY WS-MISSING.
           STOP RUN.
`,
    line: 4,
  },
} satisfies LanguageCases;
