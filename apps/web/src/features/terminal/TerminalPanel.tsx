import { EXECUTION_LIMITS } from "@ensemble/protocol";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { CloseButton } from "../../ui/CloseButton";
import type { TerminalChannel } from "./channel";
import { TERMINAL_HEIGHT } from "./height";
import { setTerminalOpen, typesIntoRun, useTerminalStore } from "./store";
import { TerminalLog } from "./TerminalLog";
import { TerminalSearch } from "./TerminalSearch";
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
  /** Our participant id: the starter of a run types into it. */
  selfId?: string | null;
  /** We may change the session (an editor of an open session): type into runs and stop them. */
  canChange?: boolean;
  /** The workspace's file paths: `path:line` references to them in output are links. */
  filePaths?: readonly string[];
  /** A `path:line[:column]` link in the output was followed: show the file there. */
  onOpenLocation?: (path: string, line: number, column?: number) => void;
}

const NO_PATHS: readonly string[] = [];

/** The session's shared terminal: resize handle, header with Clear and close, log, command line. */
export function TerminalPanel({
  id,
  channel,
  isConnected,
  toggleId,
  openFile,
  selfId = null,
  canChange = true,
  filePaths = NO_PATHS,
  onOpenLocation = () => {},
}: TerminalPanelProps) {
  const height = useTerminalStore((s) => s.height);
  const isRunning = useTerminalStore((s) => s.isRunning);
  const runBy = useTerminalStore((s) => s.runBy);
  const isStarter = useTerminalStore((s) => s.isRunning && s.runById !== null && s.runById === selfId);
  const othersMayType = useTerminalStore((s) => s.othersMayType);
  const canUse = channel !== null && isConnected;
  const toProgram = useTerminalStore((s) => canUse && canChange && typesIntoRun(s, selfId));
  const handle = useResizeHandle();
  const input = useTerminalInput(channel, { toProgram, canStop: canUse && canChange && isRunning }, openFile);
  const inputId = useId();
  const hintId = useId();
  const [isFinding, setIsFinding] = useState(false);
  const findButton = useRef<HTMLButtonElement>(null);

  const closeFind = () => {
    setIsFinding(false);
    findButton.current?.focus();
  };

  // Ctrl+F (Cmd+F) from anywhere in the panel finds in the terminal, not in the page.
  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "f") {
      event.preventDefault();
      if (isFinding) event.currentTarget.querySelector<HTMLInputElement>(".terminal-search input")?.focus();
      else setIsFinding(true);
    }
  };

  const handleClose = () => {
    setTerminalOpen(false);
    document.getElementById(toggleId)?.focus();
  };

  return (
    <section
      id={id}
      className="terminal"
      style={{ height }}
      aria-label="Terminal"
      data-testid="terminal"
      onKeyDown={handleKeyDown}
    >
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
        {isStarter && canChange && (
          <label className="terminal-access">
            <input
              type="checkbox"
              checked={othersMayType}
              onChange={(event) => channel?.setInputAccess(event.target.checked)}
            />
            Let everyone type
          </label>
        )}
        {isFinding && <TerminalSearch onClose={closeFind} />}
        <div className="terminal-actions">
          <button
            ref={findButton}
            type="button"
            className="terminal-button"
            title="Find in the terminal (Ctrl+F)"
            aria-keyshortcuts="Control+F"
            aria-expanded={isFinding}
            onClick={() => (isFinding ? closeFind() : setIsFinding(true))}
          >
            Find
          </button>
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
      <TerminalLog filePaths={filePaths} onOpenLocation={onOpenLocation} />
      <form className="terminal-input" onSubmit={input.onSubmit}>
        <label htmlFor={inputId} className="visually-hidden">
          Terminal command
        </label>
        <span className={`terminal-prompt${toProgram ? " is-program" : ""}`} aria-hidden="true">
          {toProgram ? "›" : "$"}
        </span>
        {toProgram && (
          <span id={hintId} className="visually-hidden">
            Input goes to the running program. Ctrl+D ends its input, Ctrl+C stops it.
          </span>
        )}
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={EXECUTION_LIMITS.terminalCommandMax}
          aria-describedby={toProgram ? hintId : undefined}
          data-mode={toProgram ? "program" : "command"}
          placeholder={
            !canUse
              ? "Reconnect to use the terminal"
              : toProgram
                ? "Input for the program (Enter sends, Ctrl+D ends input, Ctrl+C stops)"
                : "Type a command (help, run, clear)"
          }
          disabled={!canUse}
          value={input.value}
          onChange={(event) => input.onChange(event.target.value)}
          onKeyDown={input.onKeyDown}
        />
      </form>
    </section>
  );
}
