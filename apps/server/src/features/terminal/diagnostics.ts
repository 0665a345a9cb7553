import {
  type Diagnostic,
  diagnosticsOfRun,
  type ExecuteResponse,
  type RunDiagnostics,
} from "@ensemble/protocol";

/** Sessions whose last diagnostics this process keeps at most (the oldest go first). */
const MAX_SESSIONS = 1000;

/**
 * The diagnostics of each session's last run on this process, for a late joiner: bounded per
 * run by the protocol (DIAGNOSTIC_LIMITS), in sessions by MAX_SESSIONS, and dropped with the
 * session's document (a run's lines mean nothing to a document loaded again later).
 */
export class LastDiagnostics {
  private readonly bySession = new Map<string, RunDiagnostics>();

  constructor(private readonly isLoaded: (sessionId: string) => boolean) {}

  /** The session's current diagnostics (an empty list when it has none). */
  of(sessionId: string): RunDiagnostics {
    return this.bySession.get(sessionId) ?? { sessionId, diagnostics: [] };
  }

  /** Keeps a run's diagnostics as the session's current ones (none clears them). */
  set(sessionId: string, runId: string | undefined, diagnostics: Diagnostic[]): RunDiagnostics {
    this.bySession.delete(sessionId);
    const current: RunDiagnostics = runId ? { sessionId, runId, diagnostics } : { sessionId, diagnostics };
    for (const other of this.bySession.keys()) if (!this.isLoaded(other)) this.bySession.delete(other);
    if (diagnostics.length === 0) return current;
    this.bySession.set(sessionId, current);
    const oldest = this.bySession.keys().next().value;
    if (this.bySession.size > MAX_SESSIONS && oldest !== undefined) this.bySession.delete(oldest);
    return current;
  }
}

/** What a run's result says about the run's own files (see diagnosticsOfRun). */
export function runDiagnostics(
  response: ExecuteResponse,
  files: readonly { path: string }[],
  entry: string,
): Diagnostic[] {
  return diagnosticsOfRun({
    language: response.language,
    files: files.map((file) => file.path),
    entry,
    compile: response.compile,
    run: response.run,
  });
}
