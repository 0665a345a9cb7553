import { LANGUAGES, type Language, runEntry } from "@ensemble/protocol";
import type { TerminalChannel } from "./channel";
import { useTerminalStore } from "./store";
import { useRunCode } from "./useRunCode";

interface RunCodeButtonProps {
  channel: TerminalChannel | null;
  language: Language;
  isConnected: boolean;
  /** The session has ended: it no longer runs code. */
  isEnded?: boolean;
  /** We are a viewer: the server would refuse the run. */
  isViewOnly?: boolean;
  /** The workspace path of the file the editor shows: the run starts there when it can. */
  openFile?: string | undefined;
}

/**
 * Runs the project from the open file for everyone. While any run is in flight it is Stop
 * for every editor (SIGINT, then the run's tree killed 2 s later), and a disabled
 * 'Running...' for a viewer or an ended session.
 */
export function RunCodeButton({
  channel,
  language,
  isConnected,
  isEnded,
  isViewOnly,
  openFile,
}: RunCodeButtonProps) {
  const { isBusy, runBy, canRun, run } = useRunCode(channel, isConnected && !isEnded && !isViewOnly);
  const isRunning = useTerminalStore((s) => s.isRunning);
  const isStopping = useTerminalStore((s) => s.isStopping);
  if (isRunning && isConnected && !isEnded && !isViewOnly) {
    return (
      <button
        type="button"
        className="button button-stop"
        data-testid="run-code"
        disabled={isStopping}
        title={`Stop the run${runBy ? ` started by ${runBy}` : ""} for everyone (Ctrl+C in the terminal)`}
        onClick={() => channel?.stop()}
      >
        <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
          <rect x="6" y="6" width="12" height="12" fill="currentColor" />
        </svg>
        {isStopping ? "Stopping..." : "Stop"}
      </button>
    );
  }
  const { language: runLanguage, entry } = runEntry(openFile, language);
  const { name } = LANGUAGES[runLanguage];
  const title = isBusy
    ? `Running${runBy ? ` (started by ${runBy})` : ""}`
    : isEnded
      ? "The session has ended"
      : isViewOnly
        ? "You can only view this session"
        : isConnected
          ? `Run ${entry} (${name}) for everyone in the session`
          : "Reconnect to run code";
  return (
    <button
      type="button"
      className="button button-run"
      data-testid="run-code"
      disabled={!canRun}
      title={title}
      onClick={() => run(openFile)}
    >
      <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M7 4.5v15l12-7.5z" fill="currentColor" />
      </svg>
      {isBusy ? "Running..." : "Run Code"}
    </button>
  );
}
