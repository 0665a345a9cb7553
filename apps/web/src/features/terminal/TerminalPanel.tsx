import { EXECUTION_LIMITS } from "@ensemble/protocol";
import { useId } from "react";
import { CloseButton } from "../../ui/CloseButton";
import type { TerminalChannel } from "./channel";
import { TERMINAL_HEIGHT } from "./height";
import { setTerminalOpen, useTerminalStore } from "./store";
import { TerminalLog } from "./TerminalLog";
import { useResizeHandle } from "./useResizeHandle";
import { useTerminalInput } from "./useTerminalInput";

interface TerminalPanelProps {
  id: string;
  channel: TerminalChannel | null;
  isConnected: boolean;
  /** Where focus goes when the panel closes (the top bar's terminal toggle). */
  toggleId: string;
  /** The workspace path of the file the editor shows: a typed `run` starts there when it can. */
  openFile?: string | undefined;
}

/** The session's shared terminal: resize handle, header with Clear and close, log, command line. */
export function TerminalPanel({ id, channel, isConnected, toggleId, openFile }: TerminalPanelProps) {
  const height = useTerminalStore((s) => s.height);
  const isRunning = useTerminalStore((s) => s.isRunning);
  const runBy = useTerminalStore((s) => s.runBy);
  const handle = useResizeHandle();
  const input = useTerminalInput(channel, openFile);
  const inputId = useId();
  const canUse = channel !== null && isConnected;

  const handleClose = () => {
    setTerminalOpen(false);
    document.getElementById(toggleId)?.focus();
  };

  return (
    <section id={id} className="terminal" style={{ height }} aria-label="Terminal" data-testid="terminal">
      {/* biome-ignore lint/a11y/useSemanticElements: <hr> cannot take focus or hold a value; a focusable separator is the ARIA splitter */}
      <div
        className="terminal-handle"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize terminal"
        aria-controls={id}
        aria-valuenow={height}
        aria-valuemin={TERMINAL_HEIGHT.min}
        aria-valuemax={TERMINAL_HEIGHT.max}
        tabIndex={0}
        {...handle}
      />
      <div className="terminal-header">
        <h2 className="terminal-title">Terminal</h2>
        {isRunning && (
          <span className="terminal-running" data-testid="terminal-running">
            Running{runBy ? ` · started by ${runBy}` : ""}
          </span>
        )}
        <div className="terminal-actions">
          <button
            type="button"
            className="terminal-button"
            disabled={!canUse}
            title="Clear the terminal for everyone"
            onClick={() => channel?.command("clear")}
          >
            Clear
          </button>
          <CloseButton
            label="Close terminal"
            className="terminal-button terminal-close"
            size={14}
            onClick={handleClose}
          />
        </div>
      </div>
      <TerminalLog />
      <form className="terminal-input" onSubmit={input.onSubmit}>
        <label htmlFor={inputId} className="visually-hidden">
          Terminal command
        </label>
        <span className="terminal-prompt" aria-hidden="true">
          $
        </span>
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={EXECUTION_LIMITS.terminalCommandMax}
          placeholder={canUse ? "Type a command (help, run, clear)" : "Reconnect to use the terminal"}
          disabled={!canUse}
          value={input.value}
          onChange={(event) => input.onChange(event.target.value)}
          onKeyDown={input.onKeyDown}
        />
      </form>
    </section>
  );
}
