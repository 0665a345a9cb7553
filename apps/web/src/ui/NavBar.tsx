import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import { UserMenu } from "./UserMenu";
import { useIsHydrated } from "./useIsHydrated";

const LINKS = [
  { to: "/documentation", label: "Docs" },
  { to: "/blogs", label: "blogs" },
  { to: "/About", label: "About" },
] as const;

interface NavBarProps {
  /** The signed-in person's name, or null when nobody is signed in. */
  userName: string | null;
  onLogout: () => void;
}

/** Brand, page links, and the auth area; below 768px the links fold into a menu. */
export function NavBar({ userName, onLogout: logout }: NavBarProps) {
  const isAuthenticated = userName !== null;
  const [isMobileOpen, setIsMobileOpen] = useState(false);
  const { pathname } = useLocation();
  // The prerendered landing page cannot know who is signed in: no auth links until hydrated.
  const isHydrated = useIsHydrated();

  // A followed link should not leave the mobile menu covering the new page.
  useEffect(() => {
    if (pathname) setIsMobileOpen(false);
  }, [pathname]);

  const pageLinks = LINKS.map((link) => (
    <li key={link.to}>
      <NavLink to={link.to} className="nav-link">
        {link.label}
      </NavLink>
    </li>
  ));

  return (
    <header className="site-header">
      <nav className="nav container" aria-label="Main">
        <Link to="/" className="brand">
          <img src="/images/logo.svg" alt="" width="28" height="28" />
          <span>Ensemble</span>
        </Link>
        <ul className="nav-links nav-desktop">{pageLinks}</ul>
        <div className="nav-auth nav-desktop">
          {!isHydrated ? null : isAuthenticated ? (
            <UserMenu name={userName} onLogout={logout} />
          ) : (
            <>
              <Link to="/signin" className="button button-ghost">
                Sign In
              </Link>
              <Link to="/signup" className="button button-primary">
                Sign Up
              </Link>
            </>
          )}
        </div>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={isMobileOpen}
          aria-controls="mobile-menu"
          aria-label="Menu"
          onClick={() => setIsMobileOpen((open) => !open)}
        >
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span aria-hidden="true" />
        </button>
      </nav>
      <div id="mobile-menu" className="mobile-menu" hidden={!isMobileOpen}>
        <ul className="container">
          {pageLinks}
          {!isHydrated ? null : isAuthenticated ? (
            <>
              <li>
                <Link to="/account" className="nav-link">
                  Account
                </Link>
              </li>
              <li>
                <Link to="/my-sessions" className="nav-link">
                  My sessions
                </Link>
              </li>
              <li>
                <button type="button" className="nav-link" onClick={logout}>
                  Logout
                </button>
              </li>
            </>
          ) : (
            <>
              <li>
                <Link to="/signin" className="nav-link">
                  Sign In
                </Link>
              </li>
              <li>
                <Link to="/signup" className="nav-link">
                  Sign Up
                </Link>
              </li>
            </>
          )}
        </ul>
      </div>
    </header>
  );
}
