import { caretColumn, type DiagnosticParser, diagnostic, linesOf, positive } from "./parser";
import type { Diagnostic } from "./schema";

/**
 * gcc and g++: `path:line:col: error|warning: message`. Notes only explain the diagnostic
 * before them and are skipped; `fatal error` is an error.
 */
export const gcc: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const m = /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning): (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (!m || !path || !row) continue;
    found.push(diagnostic(path, row, positive(m[3]), m[4] === "warning" ? "warning" : "error", m[5] ?? ""));
  }
  return found;
};

/** javac: `path:line: error: message`, the source line, then a caret under the column. */
export const javac: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  const lines = linesOf(text);
  lines.forEach((line, i) => {
    const m = /^(.+\.java):(\d+): (error|warning): (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (!m || !path || !row) return;
    found.push(
      diagnostic(path, row, caretColumn(lines[i + 2]), m[3] === "warning" ? "warning" : "error", m[4] ?? ""),
    );
  });
  return found;
};

/** go build and go vet: `path.go:line:col: message` (under a `# package` line). */
export const goBuild: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const m = /^(?:vet: )?(.+\.go):(\d+):(?:(\d+):)? (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (!m || !path || !row) continue;
    found.push(diagnostic(path, row, positive(m[3]), "error", m[4] ?? ""));
  }
  return found;
};

/**
 * rustc: `error[E0308]: message` (or `warning: …`), then ` --> path:line:col` naming where.
 * A header with no arrow before the next one (`aborting due to …`) is a summary, not a place.
 */
export const rustc: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  let pending: { severity: Diagnostic["severity"]; message: string } | undefined;
  for (const line of linesOf(text)) {
    const header = /^(error|warning)(?:\[(E\d+)\])?: (.*)$/.exec(line);
    if (header) {
      const code = header[2] ? ` [${header[2]}]` : "";
      pending = { severity: header[1] === "warning" ? "warning" : "error", message: `${header[3]}${code}` };
      continue;
    }
    const arrow = /^\s*--> (.+):(\d+):(\d+)$/.exec(line);
    if (!arrow || !pending) continue;
    const path = paths.resolve(arrow[1] ?? "");
    const row = positive(arrow[2]);
    if (path && row) found.push(diagnostic(path, row, positive(arrow[3]), pending.severity, pending.message));
    pending = undefined;
  }
  return found;
};

/** tsc: `path(line,col): error TS2322: message`, or with --pretty `path:line:col - error TS…`. */
export const tsc: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const m =
      /^(.+\.[cm]?tsx?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/.exec(line) ??
      /^(.+\.[cm]?tsx?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (!m || !path || !row) continue;
    found.push(
      diagnostic(path, row, positive(m[3]), m[4] === "warning" ? "warning" : "error", `${m[6]} [${m[5]}]`),
    );
  }
  return found;
};

/**
 * esbuild: `✘ [ERROR] message` (or `▲ [WARNING]`), a blank line, then `    path:line:col:`
 * whose column counts from 0.
 */
export const esbuild: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  let pending: { severity: Diagnostic["severity"]; message: string } | undefined;
  for (const line of linesOf(text)) {
    const header = /^\S+ \[(ERROR|WARNING)\] (.*)$/.exec(line);
    if (header) {
      pending = { severity: header[1] === "WARNING" ? "warning" : "error", message: header[2] ?? "" };
      continue;
    }
    const where = /^\s+(\S.*):(\d+):(\d+):$/.exec(line);
    if (!where || !pending) continue;
    const path = paths.resolve(where[1] ?? "");
    const row = positive(where[2]);
    const column = Number.parseInt(where[3] ?? "", 10);
    if (path && row) {
      found.push(
        diagnostic(
          path,
          row,
          Number.isSafeInteger(column) ? column + 1 : undefined,
          pending.severity,
          pending.message,
        ),
      );
    }
    pending = undefined;
  }
  return found;
};

/** Mono's mcs (C#): `path(line,col): error CS0029: message`, as tsc prints. */
export const mcs: DiagnosticParser = (text, paths) => {
  const found: Diagnostic[] = [];
  for (const line of linesOf(text)) {
    const m = /^(.+\.cs)\((\d+),(\d+)\): (error|warning) (CS\d+): (.*)$/.exec(line);
    const path = m && paths.resolve(m[1] ?? "");
    const row = positive(m?.[2]);
    if (!m || !path || !row) continue;
    found.push(
      diagnostic(path, row, positive(m[3]), m[4] === "warning" ? "warning" : "error", `${m[6]} [${m[5]}]`),
    );
  }
  return found;
};
