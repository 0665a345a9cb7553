import { useId } from "react";
import { Link } from "react-router-dom";
import { useMenuButton } from "./useMenuButton";

interface UserMenuProps {
  name: string;
  onLogout: () => void;
}

/**
 * The signed-in dropdown, a WAI-ARIA menu button: opening focuses the first item, arrows
 * move between Account, My sessions and Logout, Escape closes and returns focus to the button
 * (useMenuButton).
 */
export function UserMenu({ name, onLogout }: UserMenuProps) {
  const menu = useMenuButton();
  const { isOpen, close, rootRef, buttonRef, menuRef, menuId } = menu;
  const buttonId = useId();

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
        onClick={menu.toggle}
        onKeyDown={menu.onButtonKeyDown}
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
        onKeyDown={menu.onMenuKeyDown}
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
