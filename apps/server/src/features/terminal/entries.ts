import { type ExecuteResponse, stoppedMessage, type TerminalEntry } from "@ensemble/protocol";

/**
 * PostgreSQL text cannot hold NUL, and a terminal cannot show it: it becomes the visible
 * symbol U+2400 in entries (the HTTP API keeps the raw output).
 */
export function terminalText(text: string): string {
  return text.replaceAll("\0", "\u2400");
}

/**
 * The result line of a finished live run, whose output everyone already saw as it came: who
 * stopped it, or why it ended if not by itself, or that it printed nothing.
 */
export function resultEntries(
  result: ExecuteResponse,
  live: { printed: boolean; stoppedBy?: string | undefined },
): TerminalEntry[] {
  const { run } = result;
  const entries: TerminalEntry[] = [];
  const truncated = run.truncated ? " (output truncated)" : "";
  if (live.stoppedBy !== undefined) {
    entries.push({ type: "error", content: `${stoppedMessage(live.stoppedBy)}${truncated}` });
  } else if (run.status && run.status !== "RE") {
    entries.push({ type: "error", content: `Execution failed: ${run.message ?? run.status}${truncated}` });
  } else if (run.status === "RE" && !run.stderr) {
    entries.push({ type: "error", content: run.message ?? `Exited with error status ${run.code}` });
  }
  if (entries.length === 0 && !live.printed) {
    entries.push({ type: "output", content: "Program finished with no output." });
  }
  return entries;
}
