import type { ExecuteResponse, TerminalEntry } from "@ensemble/protocol";

/**
 * PostgreSQL text cannot hold NUL, and a terminal cannot show it: it becomes the visible
 * symbol U+2400 in entries (the HTTP API keeps the raw output).
 */
export function terminalText(text: string): string {
  return text.replaceAll("\0", "\u2400");
}

/** The terminal entries of a finished run: its stdout, its stderr, and why it ended if not by itself. */
export function resultEntries(result: ExecuteResponse): TerminalEntry[] {
  const { run } = result;
  const entries: TerminalEntry[] = [];
  if (run.stdout) entries.push({ type: "output", content: terminalText(run.stdout) });
  if (run.stderr) entries.push({ type: "error", content: terminalText(run.stderr) });
  const truncated = run.truncated ? " (output truncated)" : "";
  if (run.status && run.status !== "RE") {
    entries.push({ type: "error", content: `Execution failed: ${run.message ?? run.status}${truncated}` });
  } else if (run.status === "RE" && !run.stderr) {
    entries.push({ type: "error", content: run.message ?? `Exited with error status ${run.code}` });
  }
  if (entries.length === 0) entries.push({ type: "output", content: "Program finished with no output." });
  return entries;
}
