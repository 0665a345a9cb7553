import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { useDismiss } from "./useDismiss";

interface UserMenuProps {
  name: string;
  onLogout: () => void;
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]')) : [];
}

/**
 * The signed-in dropdown, a WAI-ARIA menu button: opening focuses the first item, arrows
 * move between Account, My sessions and Logout, Escape closes and returns focus to the button.
 */
export function UserMenu({ name, onLogout }: UserMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();
  const close = useCallback(() => setIsOpen(false), []);
  useDismiss(rootRef, isOpen, close);

  useEffect(() => {
    if (isOpen) menuItems(menuRef.current)[0]?.focus();
  }, [isOpen]);

  function handleMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = menuItems(menuRef.current);
    const active = document.activeElement;
    const current = active instanceof HTMLElement ? items.indexOf(active) : -1;
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: -1 };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      items.at(target % items.length)?.focus();
    } else if (event.key === "Escape") {
      close();
      buttonRef.current?.focus();
    } else if (event.key === "Tab") {
      close();
    }
  }

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="button button-ghost user-menu-button"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setIsOpen((open) => !open)}
      >
        <span className="user-menu-dot" aria-hidden="true" />
        {name}
        <svg className="chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
          <path d="M3 4.5 6 7.5 9 4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </button>
      <div
        ref={menuRef}
        className="user-menu-list"
        id={menuId}
        role="menu"
        aria-labelledby={buttonId}
        hidden={!isOpen}
        onKeyDown={handleMenuKeyDown}
      >
        <Link to="/account" role="menuitem" tabIndex={-1} onClick={close}>
          Account
        </Link>
        <Link to="/my-sessions" role="menuitem" tabIndex={-1} onClick={close}>
          My sessions
        </Link>
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            close();
            onLogout();
          }}
        >
          Logout
        </button>
      </div>
    </div>
  );
}
