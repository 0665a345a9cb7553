import { LANGUAGE_RECORDS, type LanguageRecord } from "@ensemble/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { type Cgroups, detectCgroups } from "./cgroups";
import type { SandboxConfig, SandboxJob } from "./launch";
import { sandboxConfig } from "./local";
import { detectRuntimes, type LocalRuntime } from "./runtimes";
import { parkSandbox } from "./sandbox";
import { claimUids } from "./uids";

/**
 * A run builds from the workspace (issue 29, item 6): each compiled language's project of
 * several files, in the real sandbox, prints 42. Files outside the entry's folder, and Go's
 * _test.go files, would break the build if they were compiled.
 */
const projects: Record<string, Record<string, string>> = {
  c: {
    "src/main.c":
      '#include <stdio.h>\n#include "util.h"\nint main(void) { printf("%d\\n", answer()); return 0; }\n',
    "src/util.h": "int answer(void);\n",
    "src/lib/util.c": '#include "../util.h"\nint answer(void) { return 42; }\n',
    "other/skip.c": "this is not C and is not in the entry's folder\n",
  },
  "c++": {
    "src/main.cpp":
      '#include <iostream>\n#include "util.hpp"\nint main() { std::cout << answer() << std::endl; }\n',
    "src/util.hpp": "int answer();\n",
    "src/util.cc": '#include "util.hpp"\nint answer() { return 42; }\n',
  },
  java: {
    "src/Main.java":
      "public class Main { public static void main(String[] a) { System.out.println(Util.answer()); } }\n",
    "src/Util.java": "class Util { static int answer() { return 42; } }\n",
  },
  // Piston runs any file name: its own Java test is test.java holding public class HelloWorld.
  "java piston": {
    "test.java":
      "public class HelloWorld {\n  public static void main(String[] a) {\n    System.out.println(42);\n  }\n}",
  },
  "java package": {
    "src/Main.java":
      "package demo.app;\n\npublic class Main {\n  public static void main(String[] a) { System.out.println(Helper.answer()); }\n}\n",
    "src/Helper.java": "package demo.app;\n\nclass Helper { static int answer() { return 42; } }\n",
  },
  // Piston's nasm is i386 (its nasm64 x86-64): Linux's 32-bit system calls build for i386.
  "nasm i386": {
    "test.asm":
      "SECTION .DATA\ngood:     db '42',10\ntxtlen:  equ $-good\n\nSECTION .TEXT\nGLOBAL _start\n\n_start:\nmov eax,4\nmov ebx,1\nmov ecx,good\nmov edx,txtlen\nint 80h\nmov eax,1\nmov ebx,0\nint 80h",
  },
  go: {
    "src/main.go":
      'package main\n\nimport (\n\t"fmt"\n\n\t"./calc"\n)\n\nfunc main() { fmt.Println(answer() + calc.Zero()) }\n',
    "src/util.go": "package main\n\nfunc answer() int { return 42 }\n",
    "src/util_test.go": "package main\n\nthis would not compile\n",
    "src/calc/calc.go": "package calc\n\nfunc Zero() int { return 0 }\n",
  },
  typescript: {
    "src/main.ts": 'import { answer } from "./lib/util";\nconst n: number = answer();\nconsole.log(n);\n',
    "src/lib/util.ts": "export function answer(): number {\n  return 42;\n}\n",
  },
  csharp: {
    "src/main.cs": "class P { static void Main() { System.Console.WriteLine(Util.Answer()); } }\n",
    "src/util.cs": "static class Util { public static int Answer() { return 42; } }\n",
  },
  d: {
    "src/main.d": "import std.stdio;\nimport util;\nvoid main() { writeln(answer()); }\n",
    "src/util.d": "module util;\nint answer() { return 42; }\n",
  },
  haskell: {
    "src/main.hs": "import Util (answer)\nmain :: IO ()\nmain = print answer\n",
    "src/Util.hs": "module Util (answer) where\nanswer :: Int\nanswer = 42\n",
  },
  nim: {
    "src/main.nim": "import util\necho answer()\n",
    "src/util.nim": "proc answer*(): int = 42\n",
  },
  pascal: {
    "src/main.pas": "program Main;\nuses Util;\nbegin\n  writeln(Answer);\nend.\n",
    "src/util.pas":
      "unit Util;\ninterface\nfunction Answer: integer;\nimplementation\nfunction Answer: integer;\nbegin\n  Answer := 42;\nend;\nend.\n",
  },
  fortran: {
    "src/main.f90":
      "program main\n  print '(i0)', answer()\ncontains\n  integer function answer()\n    answer = 42\n  end function\nend program main\n",
    "src/helper.f90": "subroutine unused()\nend subroutine unused\n",
  },
  rust: {
    "src/main.rs": 'mod util;\nfn main() { println!("{}", util::answer()); }\n',
    "src/util.rs": "pub fn answer() -> i32 { 42 }\n",
  },
  cobol: {
    "src/main.cob":
      "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. MAIN.\n       DATA DIVISION.\n       WORKING-STORAGE SECTION.\n       COPY answer.\n       PROCEDURE DIVISION.\n           CALL 'SHOW' USING WS-ANSWER.\n           STOP RUN.\n",
    "src/answer.cpy": "       01 WS-ANSWER PIC 99 VALUE 42.\n",
    "src/show.cob":
      "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. SHOW.\n       DATA DIVISION.\n       LINKAGE SECTION.\n       01 L-ANSWER PIC 99.\n       PROCEDURE DIVISION USING L-ANSWER.\n           DISPLAY L-ANSWER.\n           GOBACK.\n",
  },
};

// A toolchain this machine lacks is skipped (the server would not offer it either).
const { runtimes } = await detectRuntimes(
  undefined,
  LANGUAGE_RECORDS.filter((r) => Object.keys(projects).some((key) => key.split(" ")[0] === r.id)),
);
const runtimeOf = (id: string): LocalRuntime | undefined => runtimes.find((r) => r.id === id);

describe("a compiled language's project in the real sandbox", () => {
  let cgroups: Cgroups;
  let uids: Awaited<ReturnType<typeof claimUids>> | undefined;
  let config: SandboxConfig;
  beforeAll(async () => {
    cgroups = await detectCgroups({ memoryBytes: 512 * 1024 * 1024, maxProcesses: 64, nice: 10 });
    if (process.getuid?.() === 0) uids = await claimUids(63_400, 1);
    config = sandboxConfig(loadConfig({}));
  });
  afterAll(async () => {
    await cgroups?.close();
    await uids?.release();
  });

  for (const [key, files] of Object.entries(projects)) {
    const id = key.split(" ")[0] ?? key;
    const runtime = runtimeOf(id);
    it.skipIf(!runtime)(`${key} builds every file it should and no other`, async () => {
      if (!runtime) return;
      const record = LANGUAGE_RECORDS.find((r) => r.id === id) as LanguageRecord;
      const box = await parkSandbox(config, { uid: uids?.uids[0], cgroup: await cgroups.prepare(0) });
      const job: SandboxJob = {
        runtime,
        files: Object.entries(files).map(([name, content]) => ({
          name,
          content: Buffer.from(content),
        })),
        extraFiles: runtime.extraFiles,
        args: [],
        stdin: "",
        timeoutMs: 10_000,
        cpuTimeMs: 10_000,
        memoryBytes: record.limits?.runMemoryBytes ?? 256 * 1024 * 1024,
        compile: { timeoutMs: 30_000, cpuTimeMs: 10_000, memoryBytes: 512 * 1024 * 1024 },
      };
      const result = await box.run(job).finally(() => box.release());
      expect(result.compile).toMatchObject({ code: 0, output: "" });
      expect(result.run?.stdout).toBe("42\n");
    });
  }
});
