import { z } from "zod";
import type { RuffDiagnostic } from "./ruffProtocol";

const LocationSchema = z.object({ row: z.number().int(), column: z.number().int() });

const DiagnosticSchema = z.object({
  code: z.string().nullable(),
  message: z.string(),
  tags: z.array(z.string()).optional(),
  start_location: LocationSchema,
  end_location: LocationSchema,
});

/**
 * Ruff's `check` answer (untyped, from WebAssembly) as our diagnostics; entries of another
 * shape (a future Ruff) are dropped rather than trusted.
 */
export function toRuffDiagnostics(raw: unknown): RuffDiagnostic[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const parsed = DiagnosticSchema.safeParse(entry);
    if (!parsed.success) return [];
    const { code, message, tags = [], start_location: start, end_location: end } = parsed.data;
    return [
      {
        code,
        message,
        tags: tags.filter(
          (tag): tag is "unnecessary" | "deprecated" => tag === "unnecessary" || tag === "deprecated",
        ),
        start: { line: start.row, column: start.column },
        end: { line: end.row, column: end.column },
      },
    ];
  });
}

/** A marker's content for a Ruff finding: the rule code leads (F401), as Ruff's CLI prints it. */
export function markerMessage(diagnostic: RuffDiagnostic): string {
  return diagnostic.code && diagnostic.code !== "invalid-syntax"
    ? `${diagnostic.code} ${diagnostic.message}`
    : diagnostic.message;
}

/**
 * Severity of a finding: a syntax error is an error, a lint a warning (the program may still
 * run; pyright marks what will fail).
 */
export function isError(diagnostic: RuffDiagnostic): boolean {
  return diagnostic.code === "invalid-syntax" || diagnostic.code === null || diagnostic.code.startsWith("E9");
}
