import type { AccountDeletionPreview } from "@ensemble/protocol";
import { DELETED_USER_NAME } from "@ensemble/protocol";
import { type FormEvent, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { Spinner } from "../../ui/Spinner";
import { GITHUB_REAUTH_URL } from "./accountApi";
import { useDeleteAccount } from "./useDeleteAccount";

const sessions = (count: number) => (count === 1 ? "1 session" : `${count} sessions`);

/** What deleting does, with the counts of the caller's own sessions. */
function Consequences({ preview }: { preview: AccountDeletionPreview }) {
  return (
    <ul className="deletion-consequences">
      <li>Your name, email and password are erased, and every device is signed out at once.</li>
      <li>
        {sessions(preview.sessionsArchived)} you host that others took part in will end and stay as read-only
        archives for them.
      </li>
      <li>{sessions(preview.sessionsDeleted)} only you took part in will be deleted with their files.</li>
      <li>
        Your chat messages, pull requests and edits in other people's sessions stay, shown as “
        {DELETED_USER_NAME}”.
      </li>
    </ul>
  );
}

/** The account page's "Delete account" card and its confirmation dialog. */
export function DeleteAccountSection({ userId }: { userId: string }) {
  const deletion = useDeleteAccount(userId);
  const [password, setPassword] = useState("");
  const { preview } = deletion;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (deletion.githubCode !== null) void deletion.confirm({ githubCode: deletion.githubCode });
    else if (password !== "") void deletion.confirm({ password });
  }

  return (
    <section className="card account-card" aria-labelledby="account-delete">
      <h2 id="account-delete">Delete account</h2>
      <p className="muted">Deletes your account for good. Download your data first if you want a copy.</p>
      <button type="button" className="button button-danger" onClick={deletion.open}>
        Delete account
      </button>
      <Dialog
        isOpen={deletion.isOpen}
        title="Delete your account?"
        onClose={() => {
          setPassword("");
          deletion.close();
        }}
      >
        <p>This cannot be undone.</p>
        {preview ? (
          <Consequences preview={preview} />
        ) : (
          !deletion.error && (
            <p className="muted" role="status">
              <Spinner /> Counting your sessions…
            </p>
          )
        )}
        <form className="form" onSubmit={handleSubmit} noValidate>
          {preview?.hasPassword && deletion.githubCode === null && (
            <div className="field">
              <label htmlFor="delete-password">Password</label>
              <input
                id="delete-password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </div>
          )}
          {deletion.githubCode !== null && <p>GitHub confirmed it is you.</p>}
          {deletion.error && (
            <p className="form-error" role="alert">
              {deletion.error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button button-ghost" onClick={deletion.close}>
              Cancel
            </button>
            {preview && !preview.hasPassword && deletion.githubCode === null ? (
              <a className="button button-danger" href={GITHUB_REAUTH_URL}>
                Confirm with GitHub
              </a>
            ) : (
              <button
                type="submit"
                className="button button-danger"
                disabled={
                  !preview || deletion.isDeleting || (deletion.githubCode === null && password === "")
                }
              >
                {deletion.isDeleting && <Spinner />}
                Delete my account
              </button>
            )}
          </div>
        </form>
      </Dialog>
    </section>
  );
}
