import { Link } from "react-router-dom";

/** Any route the app does not know. */
export function NotFoundPage() {
  return (
    <div className="page container center-page">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="button button-primary">
        Back to home
      </Link>
    </div>
  );
}
