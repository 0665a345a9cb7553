import type { ExecuteResponse, TerminalEntry } from "@ensemble/protocol";

export const HELP_TEXT = [
  "Available commands:",
  "  run     run the session's current file (main.js or main.py) for everyone",
  "  clear   clear the terminal for everyone in the session",
  "  help    show this help",
].join("\n");

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

export type ParsedCommand =
  | { kind: "empty" }
  | { kind: "run" }
  | { kind: "clear" }
  | { kind: "reply"; entries: TerminalEntry[] };

/** What a typed terminal line means; `git` and `pr` arrive with version control. */
export function parseCommand(line: string): ParsedCommand {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const [name, sub] = words;
  if (!name) return { kind: "empty" };
  switch (name.toLowerCase()) {
    case "run":
      return { kind: "run" };
    case "clear":
      return { kind: "clear" };
    case "help":
      return { kind: "reply", entries: [{ type: "output", content: HELP_TEXT }] };
    case "git":
      return {
        kind: "reply",
        entries: [{ type: "error", content: `Unsupported git operation: ${sub ?? ""}`.trim() }],
      };
    case "pr":
      return {
        kind: "reply",
        entries: [
          {
            type: "error",
            content: `Unknown PR command: ${sub ?? ""}. Type 'pr help' for available commands.`,
          },
        ],
      };
    default:
      return {
        kind: "reply",
        entries: [
          { type: "error", content: `Unknown command: ${name}. Type 'help' for available commands.` },
          { type: "output", content: HELP_TEXT },
        ],
      };
  }
}
