import { caretColumn, type DiagnosticParser, diagnostic, linesOf, positive } from "./parser";
import type { WorkspacePaths } from "./paths";
import type { Diagnostic } from "./schema";

interface Frame {
  path: string;
  line: number;
  column?: number | undefined;
}

/** The first frame (in the order given) that names a workspace file. */
function firstInWorkspace(
  frames: { file: string; line: string | undefined; column?: string | undefined }[],
  paths: WorkspacePaths,
): Frame | undefined {
  for (const frame of frames) {
    const path = paths.resolve(frame.file);
    const line = positive(frame.line);
    if (path && line) return { path, line, column: positive(frame.column) };
  }
  return undefined;
}

const at = (frame: Frame | undefined, message: string): Diagnostic[] =>
  frame && message.trim() ? [diagnostic(frame.path, frame.line, frame.column, "error", message)] : [];

/**
 * Python: the last traceback's innermost workspace frame (`File "/box/src/main.py", line 3`)
 * gets the exception line that ends it. A SyntaxError has one frame and no header. The
 * warnings module's `path:3: DeprecationWarning: message` lines are warnings.
 */
export const python: DiagnosticParser = (text, paths) => {
  const lines = linesOf(text);
  const warnings = lines.flatMap((line) => {
    const m = /^(.+\.py):(\d+): (\w*Warning: .*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    return m && path && row ? [diagnostic(path, row, undefined, "warning", m[3] ?? "")] : [];
  });
  let start = 0;
  lines.forEach((line, i) => {
    if (line.startsWith("Traceback (most recent call last):")) start = i;
  });
  const frames: { file: string; line: string | undefined }[] = [];
  let message = "";
  for (const line of lines.slice(start)) {
    const frame = /^\s*File "(.+)", line (\d+)/.exec(line);
    if (frame) frames.push({ file: frame[1] ?? "", line: frame[2] });
    else if (/^[A-Za-z_][\w.]*(?::|$)/.test(line) && !line.startsWith("Traceback")) message = line;
  }
  return [...warnings, ...at(firstInWorkspace(frames.reverse(), paths), message)];
};

/**
 * Node: `Error: message` with its stack (`at f (/box/src/main.js:3:5)`, innermost first);
 * a SyntaxError has no workspace frame but a header `/box/src/main.js:3` with a caret under
 * the column two lines below.
 */
export const node: DiagnosticParser = (text, paths) => {
  const all = linesOf(text);
  // An uncaught error starts with the header naming where it was thrown (`/box/src/main.js:3`,
  // `file:///…`, `node:internal/…`): errors the program logged before it are not the crash.
  const headerAt = all.reduce(
    (last, line, i) => (/^(?:file:\/\/\/|\/|node:).*:\d+$/.test(line) ? i : last),
    0,
  );
  const lines = all.slice(headerAt);
  const stackAt = lines.findIndex((line) => /^\s+at /.test(line));
  if (stackAt < 1) return [];
  // The message is the paragraph above the stack (after the source and caret block).
  let messageAt = stackAt - 1;
  while (messageAt > 0 && (lines[messageAt - 1] ?? "").trim() !== "") messageAt -= 1;
  const message = lines[messageAt] ?? "";
  const frames = lines.slice(stackAt).flatMap((line) => {
    const m = /^\s+at (?:[^()]*\()?([^()]+?):(\d+):(\d+)\)?$/.exec(line);
    return m ? [{ file: m[1] ?? "", line: m[2], column: m[3] }] : [];
  });
  const framed = firstInWorkspace(frames, paths);
  if (framed) return at(framed, message);
  const header = /^(.+):(\d+)$/.exec(lines[0] ?? "");
  const path = header && paths.resolve(header[1] ?? "");
  const row = positive(header?.[2]);
  if (!path || !row) return [];
  return [diagnostic(path, row, caretColumn(lines[2]), "error", message)];
};

/**
 * A Java exception: `Exception in thread "main" java.lang.X: message`, then `at Main.f(Main.java:5)`,
 * innermost first; a bare file name is the class's source in the run's folder.
 */
export const javaTrace: DiagnosticParser = (text, paths) => {
  const lines = linesOf(text);
  const messageAt = lines.findIndex((line) => /^Exception in thread "[^"]*" /.test(line));
  if (messageAt < 0) return [];
  const message = (lines[messageAt] ?? "").replace(/^Exception in thread "[^"]*" /, "");
  const frames: { file: string; line: string | undefined }[] = [];
  for (const line of lines.slice(messageAt + 1)) {
    const m = /^\s+at (?:[\w$.]+\/)*([\w$.<>]+)\(([^:()]+\.java):(\d+)\)$/.exec(line);
    if (m) {
      // `com.x.Foo.bar`: a class in a package lives in com/x/Foo.java.
      const pkg = (m[1] ?? "").split(".").slice(0, -2).join("/");
      frames.push({ file: pkg ? `${pkg}/${m[2]}` : (m[2] ?? ""), line: m[3] });
    } else if (!/^\s+(at |\.\.\. \d+ more)/.test(line)) break;
  }
  return at(firstInWorkspace(frames, paths), message);
};

/** A Go panic: `panic: message`, then the goroutine's frames as `\t/box/src/main.go:7 +0x1d`. */
export const goPanic: DiagnosticParser = (text, paths) => {
  const lines = linesOf(text);
  const messageAt = lines.findIndex((line) => /^(panic|fatal error): /.test(line));
  if (messageAt < 0) return [];
  const frames = lines.slice(messageAt + 1).flatMap((line) => {
    const m = /^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/.exec(line);
    return m ? [{ file: m[1] ?? "", line: m[2] }] : [];
  });
  return at(firstInWorkspace(frames, paths), lines[messageAt] ?? "");
};

/** A Rust panic: `thread 'main' panicked at src/main.rs:3:5:` then the message (1.73+), or the older one-line form. */
export const rustPanic: DiagnosticParser = (text, paths) => {
  const lines = linesOf(text);
  for (const [i, line] of lines.entries()) {
    const current = /^thread '[^']*'(?: \(\d+\))? panicked at (.+):(\d+):(\d+):$/.exec(line);
    if (current) {
      const frame = firstInWorkspace(
        [{ file: current[1] ?? "", line: current[2], column: current[3] }],
        paths,
      );
      return at(frame, lines[i + 1] ?? "panicked");
    }
    const older = /^thread '[^']*' panicked at '(.*)', ([^,]+):(\d+):(\d+)$/.exec(line);
    if (older) {
      return at(
        firstInWorkspace([{ file: older[2] ?? "", line: older[3], column: older[4] }], paths),
        older[1] ?? "",
      );
    }
  }
  return [];
};

/**
 * Ruby: `/box/src/main.rb:3:in 'greet': message (NameError)`, then `from …` frames; the
 * innermost workspace frame gets the message. A syntax error is `path:line: message`, or
 * with Ruby 3.4's parser `path: path:line: syntax errors found (SyntaxError)` with the
 * reason under a caret (`    | ^~~ unexpected 'end'`) below. `path:line: warning: …` (ruby
 * -w) is a warning; the error is the last block, after them.
 */
export const ruby: DiagnosticParser = (text, paths) => {
  const warnings: Diagnostic[] = [];
  let frames: { file: string; line: string | undefined }[] = [];
  let message = "";
  for (const line of linesOf(text)) {
    const warning = /^([^\s:][^:]*?\.rb):(\d+): warning: (.*)$/.exec(line);
    if (warning) {
      const path = paths.resolve(warning[1] ?? "");
      const row = positive(warning[2]);
      if (path && row) warnings.push(diagnostic(path, row, undefined, "warning", warning[3] ?? ""));
      continue;
    }
    const from = /^\s+from (.+?):(\d+)(?::in |$)/.exec(line);
    if (from && message) {
      frames.push({ file: from[1] ?? "", line: from[2] });
      continue;
    }
    const reason = /^\s+\|\s*\^~*\s+(.+)$/.exec(line);
    if (reason && message.startsWith("syntax errors found")) {
      message = `${reason[1]} (SyntaxError)`;
      continue;
    }
    const top = /^(?:[^\s:]+\.rb: )?([^\s:][^:]*?\.rb):(\d+):(?:in [`'][^']*'[:]?)?\s*(.*)$/.exec(line);
    if (top) {
      frames = [{ file: top[1] ?? "", line: top[2] }];
      message = top[3] || "error";
    }
  }
  return [...warnings, ...at(firstInWorkspace(frames, paths), message)];
};

/**
 * PHP: `PHP Parse error:  message in /box/src/main.php on line 3` (or `Fatal error`,
 * `Warning` …, with or without the `PHP ` prefix); an uncaught exception names `path:line`.
 */
export const php: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const kind =
      /^(?:PHP )?(Parse error|Fatal error|Warning|Notice|Deprecated|Recoverable fatal error):\s+/.exec(line);
    if (!kind) continue;
    const rest = line.slice(kind[0].length);
    // The place is the last ` in path on line N` (or `path:N`): a message may say " in " too.
    const place = / in (\S+\.php)(?: on line |:)(\d+)$/.exec(rest);
    const path = place && paths.resolve(place[1] ?? "");
    const row = positive(place?.[2]);
    if (!place || !path || !row) continue;
    const severity = /error/i.test(kind[1] ?? "") ? "error" : "warning";
    found.push(diagnostic(path, row, undefined, severity, rest.slice(0, place.index)));
  }
  return found;
};

/**
 * Lua: `lua5.4: /box/src/main.lua:2: message`, then a `stack traceback:` whose frames
 * (`\t/box/src/main.lua:4: in …`) give the innermost workspace place when the error is raised
 * elsewhere.
 */
export const lua: DiagnosticParser = (text, paths) => {
  const lines = linesOf(text);
  const messageAt = lines.findIndex((line) => /^(?:lua[\d.]*: )?[^\s:][^:]*\.lua:\d+: /.test(line));
  const first = /^(?:lua[\d.]*: )?([^\s:][^:]*\.lua):(\d+): (.*)$/.exec(lines[messageAt] ?? "");
  if (!first) return [];
  const frames = [{ file: first[1] ?? "", line: first[2] }];
  for (const line of lines.slice(messageAt + 1)) {
    const m = /^\t([^\s:][^:]*\.lua):(\d+): in /.exec(line);
    if (m) frames.push({ file: m[1] ?? "", line: m[2] });
  }
  return at(firstInWorkspace(frames, paths), first[3] ?? "");
};

/** Perl: `message at /box/src/main.pl line 5.` for a compile error, a die or a warning. */
export const perl: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const place = / at (\S+\.p[lm]) line (\d+)(?:[.,]|$)/.exec(line);
    const path = place && paths.resolve(place[1] ?? "");
    const row = positive(place?.[2]);
    if (place && path && row)
      found.push(diagnostic(path, row, undefined, "error", line.slice(0, place.index)));
  }
  return found;
};

/** Bash: `/box/src/main.sh: line 3: message`. */
export const bash: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const m = /^([^\s:][^:]*): line (\d+): (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (m && path && row) found.push(diagnostic(path, row, undefined, "error", m[3] ?? ""));
  }
  return found;
};
