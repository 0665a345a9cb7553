import type { Ack, SessionSettings } from "@ensemble/protocol";
import { useCallback, useId, useRef, useState } from "react";
import { toast } from "react-toastify/unstyled";
import { useDismiss } from "../../../ui/useDismiss";
import { setPersonalSettings, useIntelligenceSettings } from "../settings";

/** What the menu needs of the session: the host's switch (the server checks it is the host). */
export interface SessionSettingsControl {
  setCompletions(completions: boolean): Promise<Ack<SessionSettings>>;
}

interface SettingsMenuProps {
  /** Null until the session is up. */
  control: SessionSettingsControl | null;
  /** Only the host sees the session's switch. */
  isHost: boolean;
  /** Reconnect first: the session's switch needs the server. */
  isConnected: boolean;
}

export const SETTINGS_TEXT = {
  sessionOff: "The host has switched completions off for this session.",
};

/**
 * Code intelligence settings, a disclosure in the top bar: this person's completions and
 * diagnostics (kept in this browser), and for the host, completions for the whole session
 * (interview mode).
 */
export function SettingsMenu({ control, isHost, isConnected }: SettingsMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const { completions, diagnostics, sessionCompletions } = useIntelligenceSettings();
  const close = useCallback(() => {
    setIsOpen(false);
    // Escape from a switch inside: focus goes back to the button rather than to the page.
    if (rootRef.current?.contains(document.activeElement)) buttonRef.current?.focus();
  }, []);
  useDismiss(rootRef, isOpen, close);

  const handleSessionChange = async (value: boolean) => {
    if (!control) return;
    setIsSaving(true);
    const result = await control.setCompletions(value);
    setIsSaving(false);
    if (!result.ok) toast.error(result.error.message);
  };

  return (
    <div className="intelligence-settings" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Code intelligence settings"
        title="Code intelligence settings"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((open) => !open)}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <path
            d="M4 7h9M17 7h3M4 17h3M11 17h9"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          />
          <circle cx="15" cy="7" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <circle cx="9" cy="17" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
        </svg>
      </button>
      <div className="intelligence-settings-panel" id={panelId} hidden={!isOpen}>
        <fieldset>
          <legend>For me</legend>
          <label>
            <input
              type="checkbox"
              checked={completions}
              onChange={(event) => setPersonalSettings({ completions: event.target.checked })}
            />
            Completions
          </label>
          <label>
            <input
              type="checkbox"
              checked={diagnostics}
              onChange={(event) => setPersonalSettings({ diagnostics: event.target.checked })}
            />
            Diagnostics (errors and warnings as you type)
          </label>
        </fieldset>
        {isHost ? (
          <fieldset>
            <legend>For everyone in this session</legend>
            <label>
              <input
                type="checkbox"
                checked={sessionCompletions}
                disabled={!control || !isConnected || isSaving}
                onChange={(event) => void handleSessionChange(event.target.checked)}
              />
              Completions (off: interview mode)
            </label>
          </fieldset>
        ) : (
          !sessionCompletions && <p className="intelligence-settings-note">{SETTINGS_TEXT.sessionOff}</p>
        )}
      </div>
    </div>
  );
}
