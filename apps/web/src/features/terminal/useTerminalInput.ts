import { type FormEvent, type KeyboardEvent, useState } from "react";
import type { TerminalChannel } from "./channel";

/** Lines typed here that Arrow Up recalls. */
const RECALL_MAX = 50;

/** Where the command line's lines go, and what its keys do while a run is in flight. */
export interface InputMode {
  /** Lines go to the running program's stdin (Ctrl+D closes it) instead of the commands. */
  toProgram: boolean;
  /** Ctrl+C stops the run in flight (an editor, while one is). */
  canStop: boolean;
}

/**
 * The terminal's command line: Enter sends the line to the session (`run`, `clear`,
 * `help`...) with the editor's open file, or to the running program when `mode` says so (an
 * empty line too: it answers an `input()`); Ctrl+C stops a run, Ctrl+D ends its input; Arrow
 * Up and Down recall this user's earlier lines.
 */
export function useTerminalInput(channel: TerminalChannel | null, mode: InputMode, openFile?: string) {
  const [value, setValue] = useState("");
  const [recall, setRecall] = useState<string[]>([]);
  const [recallAt, setRecallAt] = useState<number | null>(null);

  return {
    value,
    onChange: (next: string) => {
      setValue(next);
      setRecallAt(null);
    },
    onSubmit(event: FormEvent) {
      event.preventDefault();
      if (!channel) return;
      if (mode.toProgram) {
        channel.input(value);
        setValue("");
        return;
      }
      const line = value.trim();
      if (line === "") return;
      channel.command(line, openFile);
      setRecall((lines) => [...lines.filter((l) => l !== line), line].slice(-RECALL_MAX));
      setRecallAt(null);
      setValue("");
    },
    onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
      const input = event.currentTarget;
      const hasSelection = input.selectionStart !== input.selectionEnd;
      // Ctrl+C copies a selection as usual; without one it is a terminal's interrupt.
      if (event.ctrlKey && event.key === "c" && !hasSelection && mode.canStop) {
        event.preventDefault();
        channel?.stop();
        return;
      }
      if (event.ctrlKey && event.key === "d" && mode.toProgram) {
        event.preventDefault();
        channel?.closeInput();
        return;
      }
      if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
      if (recall.length === 0) return;
      event.preventDefault();
      const last = recall.length - 1;
      const at =
        event.key === "ArrowUp"
          ? recallAt === null
            ? last
            : Math.max(0, recallAt - 1)
          : recallAt === null || recallAt >= last
            ? null
            : recallAt + 1;
      setRecallAt(at);
      setValue(at === null ? "" : (recall[at] ?? ""));
    },
  };
}
