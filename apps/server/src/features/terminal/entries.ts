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
  // Without a run, the compile failed: its result says why.
  const stage = result.run ?? result.compile;
  const failed = result.run ? "Execution failed" : "Compilation failed";
  const entries: TerminalEntry[] = [];
  const truncated = stage?.truncated ? " (output truncated)" : "";
  if (live.stoppedBy !== undefined) {
    entries.push({ type: "error", content: `${stoppedMessage(live.stoppedBy)}${truncated}` });
  } else if (!stage) {
    entries.push({ type: "error", content: failed });
  } else if (stage.status && stage.status !== "RE") {
    entries.push({ type: "error", content: `${failed}: ${stage.message ?? stage.status}${truncated}` });
  } else if (stage.status === "RE" && !result.run) {
    entries.push({ type: "error", content: `${failed}: exited with error status ${stage.code}` });
  } else if (stage.status === "RE" && !stage.stderr) {
    entries.push({ type: "error", content: stage.message ?? `Exited with error status ${stage.code}` });
  }
  if (entries.length === 0 && !live.printed) {
    entries.push({ type: "output", content: "Program finished with no output." });
  }
  return entries;
}
