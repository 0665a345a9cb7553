import { LANGUAGES, type Language, LanguageSchema } from "@ensemble/protocol";
import { useId } from "react";

interface TopBarProps {
  file: string;
  language: Language;
  isSidebarOpen: boolean;
  sidebarId: string;
  canSwitchLanguage: boolean;
  isHost: boolean;
  onToggleSidebar: () => void;
  onChangeLanguage: (language: Language) => void;
  onEndSession: () => void;
}

/** Sidebar toggle, the open file, the language selector and (for the host) End Session. */
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
        {props.isHost && (
          <button type="button" className="button button-danger" onClick={props.onEndSession}>
            End Session
          </button>
        )}
      </div>
    </div>
  );
}
