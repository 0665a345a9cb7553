import { useCallback, useId, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { useDismiss } from "./useDismiss";

interface UserMenuProps {
  name: string;
  onLogout: () => void;
}

/** The signed-in dropdown: a disclosure button with Account and Logout. */
export function UserMenu({ name, onLogout }: UserMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => setIsOpen(false), []);
  useDismiss(rootRef, isOpen, close);

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        type="button"
        className="button button-ghost user-menu-button"
        data-testid="user-menu"
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
      <ul className="user-menu-list" id={menuId} hidden={!isOpen}>
        <li>
          <Link to="/account" onClick={close}>
            Account
          </Link>
        </li>
        <li>
          <button
            type="button"
            onClick={() => {
              close();
              onLogout();
            }}
          >
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}
