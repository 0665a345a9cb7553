/** A request to the Ruff worker: lint a file's text or format it. */
export type RuffRequest =
  | { id: number; kind: "check"; text: string }
  | { id: number; kind: "format"; text: string };

/** One lint finding, positions 1-based in UTF-16 code units (Monaco's columns). */
export interface RuffDiagnostic {
  code: string | null;
  message: string;
  tags: ("unnecessary" | "deprecated")[];
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** The worker's answer to request `id`: a check's findings as Ruff gave them (read with `toRuffDiagnostics`). */
export type RuffResponse =
  | { id: number; ok: true; diagnostics: unknown }
  | { id: number; ok: true; formatted: string }
  | { id: number; ok: false; message: string };

/**
 * Ruff's own default rule set (pyflakes and the pycodestyle errors that need no formatter),
 * spelled out: the wasm build's `{}` also selects import sorting (I001), which flags every
 * file a person has not sorted and reads as noise in an interview.
 */
export const RUFF_SETTINGS = {
  "line-length": 88,
  "indent-width": 4,
  lint: { select: ["E4", "E7", "E9", "F"] },
  format: { "indent-style": "space", "quote-style": "double" },
} as const;
