import type { MySession } from "@ensemble/protocol";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { Dialog } from "../../ui/Dialog";
import { Spinner } from "../../ui/Spinner";
import { useAuthStore } from "../auth/store";
import { describeRow, relativeTime } from "./mySessions";
import { useMySessions } from "./useMySessions";

/** The row a confirmation is open for, and what it would do. */
type Confirming = { action: "end" | "delete"; session: MySession } | null;

const CONFIRM_TEXT = {
  end: {
    title: "End this session?",
    body: "It ends for everyone in it: it becomes read-only, its code, pull requests and replay stay, and you can reopen it from the editor.",
    button: "End Session",
  },
  delete: {
    title: "Delete this session?",
    body: "It is deleted for everyone: its files, history, chat, terminal, pull requests and repository are gone for good. Anyone in it now is sent home.",
    button: "Delete Session",
  },
} as const;

/** Refreshes "5 minutes ago" while the page is open. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** /my-sessions: the sessions I host and joined, paged, with Open, and the host's End and Delete. */
export function MySessionsPage() {
  const isSignedIn = useAuthStore((s) => s.token !== null);
  const { page, setPage, data, error, busyId, end, remove } = useMySessions(isSignedIn);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const now = useNow(30_000);

  if (!isSignedIn) {
    return (
      <div className="page container center-page">
        <h1>My sessions</h1>
        <p>Please sign in to see your sessions.</p>
        <Link to="/signin" className="button button-primary">
          Sign In
        </Link>
      </div>
    );
  }

  const close = () => setConfirming(null);
  const confirm = async () => {
    if (!confirming) return;
    const { action, session } = confirming;
    const isDone = action === "end" ? await end(session.session_id) : await remove(session.session_id);
    if (isDone) close();
  };
  const text = confirming ? CONFIRM_TEXT[confirming.action] : null;

  return (
    <div className="page container">
      <div className="page-header my-sessions-header">
        <h1>My sessions</h1>
        <p className="lead">The sessions you host and the ones you joined, the most recently active first.</p>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {data === null ? (
        !error && (
          <p className="muted" role="status">
            <Spinner /> Loading your sessions…
          </p>
        )
      ) : data.sessions.length === 0 ? (
        <p className="muted">
          {page === 1 ? "You have no sessions yet. Start one from the home page." : "No more sessions."}
        </p>
      ) : (
        <div className="card my-sessions-card">
          <table className="my-sessions-table">
            <caption className="visually-hidden">Your sessions, page {page}</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">My role</th>
                <th scope="col">People</th>
                <th scope="col">Last activity</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.sessions.map((session) => {
                const view = describeRow(session);
                const isBusy = busyId === session.session_id;
                return (
                  <tr key={session.session_id} data-testid="my-session-row">
                    <th scope="row" className="my-session-title">
                      {session.title}
                    </th>
                    <td>{view.roleLabel}</td>
                    <td>{view.peopleLabel}</td>
                    <td>
                      <time
                        dateTime={session.last_activity_at}
                        title={new Date(session.last_activity_at).toLocaleString()}
                      >
                        {relativeTime(session.last_activity_at, now)}
                      </time>
                    </td>
                    <td>
                      <span className={`session-status ${view.status === "Live" ? "is-live" : "is-ended"}`}>
                        {view.status}
                      </span>
                    </td>
                    <td className="my-session-actions">
                      <Link
                        to={view.openPath}
                        className="button button-primary"
                        aria-label={`${view.openLabel}: ${session.title}`}
                      >
                        {view.openLabel}
                      </Link>
                      {view.canEnd && (
                        <button
                          type="button"
                          className="button button-ghost"
                          disabled={isBusy}
                          aria-label={`End ${session.title}`}
                          onClick={() => setConfirming({ action: "end", session })}
                        >
                          End
                        </button>
                      )}
                      {view.canDelete && (
                        <button
                          type="button"
                          className="button button-ghost"
                          disabled={isBusy}
                          aria-label={`Delete ${session.title}`}
                          onClick={() => setConfirming({ action: "delete", session })}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {data !== null && (page > 1 || data.has_more) && (
        <nav className="my-sessions-pager" aria-label="Pages of your sessions">
          <button
            type="button"
            className="button button-ghost"
            disabled={page === 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </button>
          <span aria-live="polite">Page {page}</span>
          <button
            type="button"
            className="button button-ghost"
            disabled={!data.has_more}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </nav>
      )}
      <Dialog isOpen={confirming !== null} title={text?.title ?? ""} onClose={close}>
        {confirming && text && (
          <>
            <p>
              <strong>{confirming.session.title}</strong>: {text.body}
            </p>
            <div className="dialog-actions">
              <button type="button" className="button button-ghost" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={busyId !== null}
                onClick={() => void confirm()}
              >
                {busyId !== null && <Spinner />}
                {text.button}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </div>
  );
}
