/** Where the sandbox puts the workspace: compilers print `/box/src/main.c:3:5`. */
const SANDBOX_ROOT = "/box/";

/**
 * `path:line`, `path:line:column` (gcc, javac, go, rustc, Node stacks), `path(line,column)`
 * (tsc) and `path", line N` (Python tracebacks). A path is letters, digits, `.`, `_`, `-` and
 * `/`, not glued to a word before it.
 */
const REFERENCE =
  /(?<![\w./-])((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*)(?::(\d+)(?::(\d+))?|\((\d+),(\d+)\)|", line (\d+))/g;

/** A reference to a workspace file found in a line of output, by UTF-16 index in the line. */
export interface FileLink {
  /** Index of the reference's first character. */
  start: number;
  /** Index just past its last character. */
  end: number;
  /** The workspace path (the sandbox's `/box/` and a leading `./` dropped). */
  path: string;
  line: number;
  column?: number;
}

/** The workspace path a printed path names, or null when it names no file of `paths`. */
export function workspacePath(printed: string, paths: ReadonlySet<string>): string | null {
  let path = printed;
  if (path.startsWith(SANDBOX_ROOT)) path = path.slice(SANDBOX_ROOT.length);
  while (path.startsWith("./")) path = path.slice(2);
  return paths.has(path) ? path : null;
}

/**
 * The references in `text` (one line of output) to files of `paths` with a line number of 1
 * or more; anything else that looks like one (`localhost:3000`, `/usr/include/stdio.h:12`)
 * is not a link.
 */
export function findFileLinks(text: string, paths: ReadonlySet<string>): FileLink[] {
  const links: FileLink[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, printed = "", colonLine, colonColumn, parenLine, parenColumn, pythonLine] = match;
    const path = workspacePath(printed, paths);
    const line = Number(colonLine ?? parenLine ?? pythonLine);
    if (path === null || !(line >= 1)) continue;
    const column = Number(colonColumn ?? parenColumn);
    links.push({
      start: match.index,
      end: match.index + whole.length,
      path,
      line,
      ...(column >= 1 ? { column } : {}),
    });
  }
  return links;
}
