import { type FormEvent, type KeyboardEvent, useState } from "react";
import type { TerminalChannel } from "./channel";

/** Lines typed here that Arrow Up recalls. */
const RECALL_MAX = 50;

/**
 * The terminal's command line: Enter sends the line to the session (`run`, `clear`,
 * `help`...) with the editor's open file, Arrow Up and Down recall this user's earlier lines.
 */
export function useTerminalInput(channel: TerminalChannel | null, openFile?: string) {
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
      const line = value.trim();
      if (!channel || line === "") return;
      channel.command(line, openFile);
      setRecall((lines) => [...lines.filter((l) => l !== line), line].slice(-RECALL_MAX));
      setRecallAt(null);
      setValue("");
    },
    onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
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
