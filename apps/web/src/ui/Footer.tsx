import { Link } from "react-router-dom";
import { useIsHydrated } from "./useIsHydrated";

// Placeholders of the spec's footer (they lead nowhere yet), so plain text, not dead links.
const ABOUT_ITEMS = ["About Us", "Features", "Documentation", "Terms and conditions", "FAQ"];

const SOCIAL_LINKS = [
  { href: "https://github.com/", label: "GitHub" },
  { href: "https://www.linkedin.com/", label: "LinkedIn" },
  { href: "https://x.com/", label: "X (Twitter)" },
  { href: "https://www.instagram.com/", label: "Instagram" },
] as const;

/** Site footer: tagline, the About placeholders, contact details and social links. */
export function Footer() {
  // This year is the visitor's, not the build's: the line is left out of the prerendered page.
  const isHydrated = useIsHydrated();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Link to="/" className="brand">
            <img src="/images/logo.svg" alt="" width="28" height="28" />
            <span>Ensemble</span>
          </Link>
          <p className="footer-tagline">Code, collaborate and connect — all in one place.</p>
        </div>
        <div>
          <h2 className="footer-heading">About</h2>
          <ul className="footer-list">
            {ABOUT_ITEMS.map((item) => (
              <li key={item}>
                <span className="footer-placeholder">{item}</span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="footer-heading">Contact</h2>
          <address className="footer-list">
            <span>Berlin, Germany</span>
            <a href="mailto:hello@ensemble.dev">hello@ensemble.dev</a>
            <a href="tel:+493012345678">+49 30 1234 5678</a>
          </address>
        </div>
        <div>
          <h2 className="footer-heading">Follow us</h2>
          <ul className="footer-list">
            {SOCIAL_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} target="_blank" rel="noopener noreferrer">
                  {link.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {isHydrated && (
        <p className="container footer-legal">© {new Date().getFullYear()} Ensemble. All rights reserved.</p>
      )}
    </footer>
  );
}
