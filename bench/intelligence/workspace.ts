import type { Ack } from "@ensemble/protocol";
import type { Socket } from "socket.io-client";

/** One language's part of the bench: its file, the error it carries and a member completion. */
export interface Scenario {
  /** The name of its service in the results (TypeScript, Python, C/C++). */
  name: string;
  /** The file opened, created with `text`. */
  path: string;
  text: string;
  /** Typed on a new last line before the measured `.` */
  receiver: string;
  /** A label the completion list must show after the `.` */
  expected: string;
  /** Where its service runs, for the results. */
  where: "browser" | "server";
}

const MODULES = 120;
const PY_MODULES = 40;
const C_HEADERS = 37;

/** 200 files: TypeScript modules, Python modules and C headers, plus each scenario's file. */
export function workspaceFiles(): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  for (let i = 0; i < MODULES; i++) {
    files.push({
      path: `src/lib/m${i}.ts`,
      content: `export interface Item${i} {\n  id: number;\n  name: string;\n}\n\nexport function make${i}(id: number): Item${i} {\n  return { id, name: "m${i}" };\n}\n`,
    });
  }
  for (let i = 0; i < PY_MODULES; i++) {
    files.push({
      path: `py/m${i}.py`,
      content: `def make${i}(n: int) -> int:\n    return n + ${i}\n`,
    });
  }
  for (let i = 0; i < C_HEADERS; i++) {
    files.push({ path: `c/m${i}.h`, content: `int f${i}(int x);\n` });
  }
  for (const scenario of SCENARIOS) files.push({ path: scenario.path, content: scenario.text });
  return files;
}

export const SCENARIOS: Scenario[] = [
  {
    name: "TypeScript",
    path: "src/main.ts",
    text: 'import { make1 } from "./lib/m1";\n\nconst item = make1(1);\nconst wrong: string = make1(2).id;\nconsole.log(item, wrong);\n',
    receiver: "item",
    expected: "name",
    where: "browser",
  },
  {
    name: "Python",
    path: "py/main.py",
    text: "import os\nfrom m1 import make1\n\nprint(make1(1), undefined_name)\n",
    receiver: "os",
    // The list is sorted and draws only the rows in view: its first member, not `path`.
    expected: "abort",
    where: "browser",
  },
  {
    name: "C/C++",
    path: "c/main.c",
    text: '#include "m1.h"\n\nstruct point {\n  int x;\n  int y;\n};\n\nstruct point p = {1, 2};\n\nint main(void) { return missing + f1(p.x); }\n',
    receiver: "int g(void) { return p",
    expected: "x",
    where: "server",
  },
];

/** Creates the files through the socket, as the file tree's New File does. */
export async function createFiles(
  socket: Socket,
  sessionId: string,
  files: { path: string; content: string }[],
) {
  for (const file of files) {
    const ack: Ack<unknown> = await socket.emitWithAck("createFile", {
      sessionId,
      path: file.path,
      kind: "file",
      content: file.content,
    });
    if (!ack.ok) throw new Error(`createFile ${file.path}: ${ack.error.message}`);
    // Files are "event"s: 20 a second per connection.
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
}
