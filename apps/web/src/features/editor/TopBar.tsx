import { LANGUAGES, type Language, LanguageSchema } from "@ensemble/protocol";
import { useId } from "react";
import type { TerminalChannel } from "../terminal/channel";
import { RunCodeButton } from "../terminal/RunCodeButton";

interface TopBarProps {
  file: string;
  language: Language;
  isSidebarOpen: boolean;
  sidebarId: string;
  canSwitchLanguage: boolean;
  isHost: boolean;
  isConnected: boolean;
  isTerminalOpen: boolean;
  terminalId: string;
  terminalToggleId: string;
  terminal: TerminalChannel | null;
  onToggleSidebar: () => void;
  onToggleTerminal: () => void;
  onChangeLanguage: (language: Language) => void;
  onEndSession: () => void;
}

/**
 * Sidebar and terminal toggles, the open file, the language selector, Run Code and (for
 * the host) End Session.
 */
export function TopBar(props: TopBarProps) {
  const selectId = useId();
  return (
    <div className="editor-topbar">
      <button
        type="button"
        className="icon-button"
        aria-label={props.isSidebarOpen ? "Hide sidebar" : "Show sidebar"}
        aria-expanded={props.isSidebarOpen}
        aria-controls={props.sidebarId}
        onClick={props.onToggleSidebar}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <rect
            x="3"
            y="4"
            width="18"
            height="16"
            rx="2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
          />
          <path d="M9 4v16" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </button>
      <button
        type="button"
        id={props.terminalToggleId}
        className="icon-button"
        aria-label={props.isTerminalOpen ? "Hide terminal" : "Show terminal"}
        aria-expanded={props.isTerminalOpen}
        aria-controls={props.terminalId}
        onClick={props.onToggleTerminal}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <rect
            x="3"
            y="4"
            width="18"
            height="16"
            rx="2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
          />
          <path
            d="M7 9l3 3-3 3M12 15h5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <h1 className="editor-filename" data-testid="editor-file-name">
        {props.file}
      </h1>
      <div className="editor-topbar-actions">
        <label htmlFor={selectId} className="visually-hidden">
          Language
        </label>
        <select
          id={selectId}
          className="language-select"
          value={props.language}
          disabled={!props.canSwitchLanguage}
          title={props.canSwitchLanguage ? undefined : "Reconnect to switch the language"}
          onChange={(event) => {
            const parsed = LanguageSchema.safeParse(event.target.value);
            if (parsed.success) props.onChangeLanguage(parsed.data);
          }}
        >
          {Object.values(LANGUAGES).map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
        <RunCodeButton channel={props.terminal} language={props.language} isConnected={props.isConnected} />
        {props.isHost && (
          <button type="button" className="button button-danger" onClick={props.onEndSession}>
            End Session
          </button>
        )}
      </div>
    </div>
  );
}
