import type { Language } from "@ensemble/protocol";
import { type ReactNode, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { useMenuButton } from "../../ui/useMenuButton";
import { setPanelOpen, useCallStore } from "../calls/store";
import { unreadLabel } from "../chat/panel";
import { setChatOpen, useChatStore } from "../chat/store";
import { useCollabStore } from "../collab/store";
import { useFormatStore } from "../intelligence/format/store";
import { formatterFor } from "../intelligence/formatters";
import { setReplayOpen } from "../replay/store";
import { LanguageSelect } from "./LanguageSelect";
import type { PickerLanguage } from "./runtimes";

/** The menu button's id: a drawer opened from the menu gives focus back to it. */
export const MORE_ACTIONS_ID = "editor-more-actions";

interface TopBarMenuProps {
  languages: PickerLanguage[];
  language: Language;
  canSwitchLanguage: boolean;
  /** Why the language cannot be switched now, when it cannot. */
  languageLockReason: string;
  /** The editor language of the shown file (for Format document), or null when none is open. */
  fileLanguage: string | null;
  /** Format document and End Session are offered (not a viewer, session not ended). */
  canFormat: boolean;
  canEndSession: boolean;
  onChangeLanguage: (language: Language) => void;
  onEndSession: () => void;
}

/**
 * The compact top bar's "More actions", a WAI-ARIA menu button: the chat, call and replay
 * panels, Format document, the language (in a small dialog: a list of every language would
 * not fit a phone's menu), and End Session. Opening focuses the first item
 * (ArrowUp on the button: the last), arrows, Home and End move, Escape closes and gives focus
 * back to the button, Tab closes.
 */
export function TopBarMenu(props: TopBarMenuProps) {
  const menu = useMenuButton();
  const { isOpen, close, rootRef, buttonRef, menuRef, menuId } = menu;
  const [isLanguageOpen, setIsLanguageOpen] = useState(false);
  const current = props.languages.find(({ record }) => record.id === props.language);
  const unread = useChatStore((s) => s.unread);
  const online = useCollabStore((s) => s.participants.length);
  const isInCall = useCallStore((s) => s.status === "connected" || s.status === "connecting");
  const formatRun = useFormatStore((s) => s.run);
  const isFormatting = useFormatStore((s) => s.isFormatting);
  const hasFormatter = props.fileLanguage !== null && formatterFor(props.fileLanguage) !== undefined;

  /** Closes the menu and does `action`; focus goes back to the button unless the action moves it. */
  const choose = (action: () => void) => {
    close();
    buttonRef.current?.focus();
    action();
  };

  return (
    <div className="topbar-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        id={MORE_ACTIONS_ID}
        type="button"
        className="icon-button"
        aria-label="More actions"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        data-testid="more-actions"
        onClick={menu.toggle}
        onKeyDown={menu.onButtonKeyDown}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="5" r="1.8" fill="currentColor" />
          <circle cx="12" cy="12" r="1.8" fill="currentColor" />
          <circle cx="12" cy="19" r="1.8" fill="currentColor" />
        </svg>
      </button>
      <div
        ref={menuRef}
        id={menuId}
        className="topbar-menu-list"
        role="menu"
        aria-label="More actions"
        hidden={!isOpen}
        onKeyDown={menu.onMenuKeyDown}
      >
        <MenuItem onChoose={() => choose(() => setChatOpen(true))}>
          Chat{unread > 0 && <span className="chat-unread">{unreadLabel(unread)} unread</span>}
        </MenuItem>
        <MenuItem onChoose={() => choose(() => setPanelOpen(true))}>
          Call <span className="topbar-menu-hint">{isInCall ? "in call" : `${online} online`}</span>
        </MenuItem>
        <MenuItem onChoose={() => choose(() => setReplayOpen(true))}>Replay</MenuItem>
        {props.canFormat && (
          <MenuItem
            isDisabled={!formatRun || !hasFormatter || isFormatting}
            onChoose={() => choose(() => formatRun?.())}
          >
            Format document
          </MenuItem>
        )}
        <MenuItem onChoose={() => choose(() => setIsLanguageOpen(true))}>
          Language <span className="topbar-menu-hint">{current?.record.name ?? props.language}</span>
        </MenuItem>
        {props.canEndSession && (
          <MenuItem className="is-danger" onChoose={() => choose(props.onEndSession)}>
            End Session
          </MenuItem>
        )}
      </div>
      <Dialog isOpen={isLanguageOpen} title="Language" onClose={() => setIsLanguageOpen(false)}>
        <div className="field">
          <LanguageSelect
            languages={props.languages}
            language={props.language}
            canSwitch={props.canSwitchLanguage}
            disabledReason={props.languageLockReason}
            onChange={props.onChangeLanguage}
            isLabelShown
          />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={() => setIsLanguageOpen(false)}>
            Done
          </button>
        </div>
      </Dialog>
    </div>
  );
}

interface MenuItemProps {
  isDisabled?: boolean | undefined;
  className?: string | undefined;
  onChoose: () => void;
  children: ReactNode;
}

/** One item: reachable by the arrows even when disabled (WAI-ARIA), doing nothing then. */
function MenuItem({ isDisabled = false, className, onChoose, children }: MenuItemProps) {
  const shared = {
    type: "button",
    "aria-disabled": isDisabled || undefined,
    tabIndex: -1,
    className: className ? `topbar-menu-item ${className}` : "topbar-menu-item",
    onClick: () => {
      if (!isDisabled) onChoose();
    },
  } as const;
  return (
    <button role="menuitem" {...shared}>
      {children}
    </button>
  );
}
