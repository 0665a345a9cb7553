import type { TerminalChannel } from "./channel";
import { useTerminalStore } from "./store";

/**
 * Run Code for the session: busy while the session's run is in flight for anyone (the
 * server tells every participant) or while our own request awaits its answer.
 */
export function useRunCode(channel: TerminalChannel | null, isConnected: boolean) {
  const isBusy = useTerminalStore((s) => s.isRunning || s.isStarting);
  const runBy = useTerminalStore((s) => s.runBy);
  return {
    isBusy,
    runBy,
    canRun: channel !== null && isConnected && !isBusy,
    /** Runs the project from `openFile` (the editor's open file), see TerminalChannel.run. */
    run: (openFile?: string) => {
      if (channel && isConnected && !isBusy) channel.run(openFile);
    },
  };
}
