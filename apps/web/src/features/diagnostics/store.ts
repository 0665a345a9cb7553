import type { Diagnostic } from "@ensemble/protocol";
import { create } from "zustand";

interface RunDiagnosticsState {
  /** The run they came from, or null when there are none. */
  runId: string | null;
  /** What the session's last run reported on its files, as the server sent it. */
  diagnostics: Diagnostic[];
}

/** The session's run diagnostics: the same for everyone, replaced by each run. */
export const useRunDiagnostics = create<RunDiagnosticsState>()(() => ({ runId: null, diagnostics: [] }));

export function setRunDiagnostics(runId: string | null, diagnostics: Diagnostic[]): void {
  useRunDiagnostics.setState({ runId, diagnostics });
}

/** Forgets them (a new session). */
export function resetRunDiagnostics(): void {
  setRunDiagnostics(null, []);
}
