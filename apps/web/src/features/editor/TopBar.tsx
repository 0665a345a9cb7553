import { type Language, LanguageSchema } from "@ensemble/protocol";
import { type ReactNode, useId } from "react";
import { CallPanelToggle } from "../calls/CallPanelToggle";
import { ChatToggle } from "../chat/ChatToggle";
import { type SessionSettingsControl, SettingsMenu } from "../intelligence/controls/SettingsMenu";
import { FormatButton } from "../intelligence/format/FormatButton";
import { PendingBadge } from "../pulls/PendingBadge";
import { ReplayToggle } from "../replay/ReplayToggle";
import type { TerminalChannel } from "../terminal/channel";
import { RunCodeButton } from "../terminal/RunCodeButton";
import { editorLanguage } from "../workspace/tree";
import { pickerLanguages, useRuntimes } from "./runtimes";

interface TopBarProps {
  file: string;
  /** The workspace path of the open file, if one is open (Run Code starts there when it can). */
  openFile: string | undefined;
  language: Language;
  isSidebarOpen: boolean;
  sidebarId: string;
  canSwitchLanguage: boolean;
  isHost: boolean;
  isConnected: boolean;
  /** The host ended the session: nothing runs or switches, and End Session is gone. */
  isEnded: boolean;
  /** We are a viewer: nothing runs or changes from here. */
  isViewOnly: boolean;
  isTerminalOpen: boolean;
  terminalId: string;
  terminalToggleId: string;
  terminal: TerminalChannel | null;
  /** The host's switch of the session's settings (interview mode). */
  settings: SessionSettingsControl | null;
  onToggleSidebar: () => void;
  onToggleTerminal: () => void;
  onChangeLanguage: (language: Language) => void;
  onEndSession: () => void;
}

/**
 * Sidebar, terminal and call-panel toggles, the open file, Format Document and the code
 * intelligence settings, the language selector, Run Code, (for the
 * host) the pending-PR badge, and End Session: the host's ends it for everyone, anyone
 * else's for themselves.
 */
export function TopBar(props: TopBarProps) {
  const selectId = useId();
  const languages = pickerLanguages(useRuntimes(), props.language);
  return (
    <div className="editor-topbar">
      <PanelToggle
        label="sidebar"
        isOpen={props.isSidebarOpen}
        controls={props.sidebarId}
        onToggle={props.onToggleSidebar}
        icon={<path d="M9 4v16" stroke="currentColor" strokeWidth="1.8" />}
      />
      <PanelToggle
        id={props.terminalToggleId}
        label="terminal"
        isOpen={props.isTerminalOpen}
        controls={props.terminalId}
        onToggle={props.onToggleTerminal}
        icon={
          <path
            d="M7 9l3 3-3 3M12 15h5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        }
      />
      <CallPanelToggle />
      <ChatToggle />
      <ReplayToggle />
      <h1 className="editor-filename" data-testid="editor-file-name">
        {props.file}
      </h1>
      <div className="editor-topbar-actions">
        {!props.isViewOnly && !props.isEnded && (
          <FormatButton language={props.openFile === undefined ? null : editorLanguage(props.openFile)} />
        )}
        <SettingsMenu control={props.settings} isHost={props.isHost} isConnected={props.isConnected} />
        <label htmlFor={selectId} className="visually-hidden">
          Language
        </label>
        <select
          id={selectId}
          className="language-select"
          value={props.language}
          disabled={!props.canSwitchLanguage}
          title={
            props.canSwitchLanguage
              ? undefined
              : props.isEnded
                ? "The session has ended"
                : props.isViewOnly
                  ? "You can only view this session"
                  : "Reconnect to switch the language"
          }
          onChange={(event) => {
            const parsed = LanguageSchema.safeParse(event.target.value);
            if (parsed.success) props.onChangeLanguage(parsed.data);
          }}
        >
          {languages.map(({ record }) => (
            <option key={record.id} value={record.id}>
              {record.name}
            </option>
          ))}
        </select>
        <RunCodeButton
          channel={props.terminal}
          language={props.language}
          isConnected={props.isConnected}
          isEnded={props.isEnded}
          isViewOnly={props.isViewOnly}
          openFile={props.openFile}
        />
        {props.isHost && <PendingBadge />}
        {!props.isEnded && (
          <button type="button" className="button button-danger" onClick={props.onEndSession}>
            End Session
          </button>
        )}
      </div>
    </div>
  );
}

interface PanelToggleProps {
  id?: string | undefined;
  /** What the panel is called in "Show …" / "Hide …". */
  label: string;
  isOpen: boolean;
  controls: string;
  onToggle: () => void;
  /** Drawn inside the shared window frame. */
  icon: ReactNode;
}

/** An icon button that shows or hides one panel of the editor. */
function PanelToggle({ id, label, isOpen, controls, onToggle, icon }: PanelToggleProps) {
  return (
    <button
      type="button"
      id={id}
      className="icon-button"
      aria-label={`${isOpen ? "Hide" : "Show"} ${label}`}
      aria-expanded={isOpen}
      aria-controls={controls}
      onClick={onToggle}
    >
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
        <rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
        {icon}
      </svg>
    </button>
  );
}
