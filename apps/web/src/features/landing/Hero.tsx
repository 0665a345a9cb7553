import { lazy, Suspense, useState } from "react";
import { useSessionStore } from "../sessions/store";

// The dialogs bring the API client and the protocol's schemas: they load when the visitor
// heads for a button (pointer over it, or focus), so the landing page itself does not wait
// for them.
const loadCreateDialog = () => import("../sessions/CreateSessionDialog");
const loadJoinDialog = () => import("../sessions/JoinSessionDialog");
const CreateSessionDialog = lazy(() => loadCreateDialog().then((m) => ({ default: m.CreateSessionDialog })));
const JoinSessionDialog = lazy(() => loadJoinDialog().then((m) => ({ default: m.JoinSessionDialog })));

const preloadCreate = () => void loadCreateDialog();
const preloadJoin = () => void loadJoinDialog();

type OpenDialog = "create" | "join" | null;

// The link comes from the server; only web or same-origin links may become an href.
function isSafeLink(link: string): boolean {
  try {
    const url = new URL(link, window.location.origin);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The hero: headline, the two session buttons and the last created session's link. */
export function Hero() {
  const [openDialog, setOpenDialog] = useState<OpenDialog>(null);
  const sessionLink = useSessionStore((s) => s.sessionLink);
  const close = () => setOpenDialog(null);

  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-grid">
        <div className="hero-copy">
          <p className="eyebrow">Real-time collaborative code editor</p>
          <h1 id="hero-title" className="hero-title">
            Turn solo code into <span className="gradient-text">symphony</span>
          </h1>
          <p className="hero-lead">Write, share, and collaborate on code in real time.</p>
          <div className="hero-actions">
            <button
              type="button"
              className="button button-primary button-lg"
              onPointerEnter={preloadCreate}
              onFocus={preloadCreate}
              onClick={() => setOpenDialog("create")}
            >
              Start Building
            </button>
            <button
              type="button"
              className="button button-ghost button-lg"
              onPointerEnter={preloadJoin}
              onFocus={preloadJoin}
              onClick={() => setOpenDialog("join")}
            >
              Collaborate
            </button>
          </div>
          {sessionLink && isSafeLink(sessionLink) && (
            <p className="session-link">
              <a href={sessionLink} data-testid="session-link">
                Session Link
              </a>
              <code>{sessionLink}</code>
            </p>
          )}
        </div>
        <div className="hero-art">
          <img
            src="/images/hero-editor.svg"
            alt="An editor window with two collaborators' cursors in the same file"
            width="560"
            height="400"
            fetchPriority="high"
          />
        </div>
      </div>
      <Suspense fallback={null}>
        {openDialog === "create" && <CreateSessionDialog isOpen onClose={close} />}
        {openDialog === "join" && <JoinSessionDialog isOpen onClose={close} />}
      </Suspense>
    </section>
  );
}
