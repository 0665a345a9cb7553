import type { Language } from "@ensemble/protocol";
import type { ReactNode } from "react";
import { CallPanelToggle } from "../calls/CallPanelToggle";
import { ChatToggle } from "../chat/ChatToggle";
import { type SessionSettingsControl, SettingsMenu } from "../intelligence/controls/SettingsMenu";
import { FormatButton } from "../intelligence/format/FormatButton";
import { PendingBadge } from "../pulls/PendingBadge";
import { ReplayToggle } from "../replay/ReplayToggle";
import type { TerminalChannel } from "../terminal/channel";
import { RunCodeButton } from "../terminal/RunCodeButton";
import { editorLanguage } from "../workspace/tree";
import { LanguageSelect } from "./LanguageSelect";
import { type PickerLanguage, pickerLanguages, useRuntimes } from "./runtimes";
import { TopBarMenu } from "./TopBarMenu";

interface TopBarProps {
  /** The tablet and phone layout: the less used actions fold into "More actions". */
  isCompact: boolean;
  file: string;
  /** The workspace path of the open file, if one is open (Run Code starts there when it can). */
  openFile: string | undefined;
  language: Language;
  isSidebarOpen: boolean;
  sidebarId: string;
  sidebarToggleId: string;
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
  const languages = pickerLanguages(useRuntimes(), props.language);
  if (props.isCompact) return <CompactTopBar {...props} languages={languages} />;
  return (
    <div className="editor-topbar">
      <LayoutToggles {...props} />
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
        <LanguageSelect
          languages={languages}
          language={props.language}
          canSwitch={props.canSwitchLanguage}
          disabledReason={languageLockReason(props)}
          onChange={props.onChangeLanguage}
        />
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

/** Why the language cannot be switched now (the picker's title). */
function languageLockReason({ isEnded, isViewOnly }: Pick<TopBarProps, "isEnded" | "isViewOnly">): string {
  if (isEnded) return "The session has ended";
  if (isViewOnly) return "You can only view this session";
  return "Reconnect to switch the language";
}

const SIDEBAR_ICON = <path d="M9 4v16" stroke="currentColor" strokeWidth="1.8" />;
const TERMINAL_ICON = (
  <path
    d="M7 9l3 3-3 3M12 15h5"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
  />
);

/** The sidebar's and the terminal's toggles, first on both bars. */
function LayoutToggles(props: TopBarProps) {
  return (
    <>
      <PanelToggle
        id={props.sidebarToggleId}
        label="sidebar"
        isOpen={props.isSidebarOpen}
        controls={props.sidebarId}
        onToggle={props.onToggleSidebar}
        icon={SIDEBAR_ICON}
      />
      <PanelToggle
        id={props.terminalToggleId}
        label="terminal"
        isOpen={props.isTerminalOpen}
        controls={props.terminalId}
        onToggle={props.onToggleTerminal}
        icon={TERMINAL_ICON}
      />
    </>
  );
}

/**
 * The top bar of a tablet or phone: the sidebar and terminal toggles, the file name (read
 * only by assistive technology on a phone, where the tab shows it), the settings, Run Code,
 * the host's pending-PR badge, and "More actions" with the rest.
 */
function CompactTopBar({ languages, ...props }: TopBarProps & { languages: PickerLanguage[] }) {
  return (
    <div className="editor-topbar is-compact">
      <LayoutToggles {...props} />
      <h1 className="editor-filename" data-testid="editor-file-name">
        {props.file}
      </h1>
      <div className="editor-topbar-actions">
        <SettingsMenu control={props.settings} isHost={props.isHost} isConnected={props.isConnected} />
        <RunCodeButton
          channel={props.terminal}
          language={props.language}
          isConnected={props.isConnected}
          isEnded={props.isEnded}
          isViewOnly={props.isViewOnly}
          openFile={props.openFile}
        />
        {props.isHost && <PendingBadge />}
        <TopBarMenu
          languages={languages}
          language={props.language}
          canSwitchLanguage={props.canSwitchLanguage}
          languageLockReason={languageLockReason(props)}
          fileLanguage={props.openFile === undefined ? null : editorLanguage(props.openFile)}
          canFormat={!props.isViewOnly && !props.isEnded}
          canEndSession={!props.isEnded}
          onChangeLanguage={props.onChangeLanguage}
          onEndSession={props.onEndSession}
        />
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
