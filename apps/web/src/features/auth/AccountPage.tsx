import type { User } from "@ensemble/protocol";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { Spinner } from "../../ui/Spinner";
import { ApiTokensSection } from "./ApiTokensSection";
import { avatarColor, initialsOf } from "./avatar";
import { DeleteAccountSection } from "./DeleteAccountSection";
import { ExportDataSection } from "./ExportDataSection";
import { type AccountDraft, useAccount } from "./useAccount";
import { useLogoutEverywhere } from "./useLogoutEverywhere";

function draftOf(user: User): AccountDraft {
  return { name: user.name, email: user.email, password: "" };
}

const FIELDS = [
  { key: "name", label: "Name", type: "text", autoComplete: "username", hint: undefined },
  { key: "email", label: "Email", type: "email", autoComplete: "email", hint: undefined },
  {
    key: "password",
    label: "Password",
    type: "password",
    autoComplete: "new-password",
    hint: "Leave empty to keep your current password.",
  },
] as const;

/**
 * /account: view and edit name, email and password (spec §2, §5), personal API tokens, the
 * data export and the account's deletion.
 */
export function AccountPage() {
  const { hasToken, user, isSaving, saveError, clearSaveError, save } = useAccount();
  const [draft, setDraft] = useState<AccountDraft | null>(null);
  const logoutEverywhere = useLogoutEverywhere();

  if (!hasToken) {
    return (
      <div className="page container center-page">
        <h1>Account</h1>
        <p>Please login to view/update account details</p>
        <Link to="/signin" className="button button-primary">
          Sign In
        </Link>
      </div>
    );
  }
  if (!user) {
    return (
      <div className="page container center-page">
        <h1>Account</h1>
        <p className="muted" role="status">
          <Spinner /> Loading your account…
        </p>
      </div>
    );
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft && (await save(draft))) setDraft(null);
  }

  return (
    <div className="page container narrow">
      <h1>Account</h1>
      <section className="card account-card" aria-label="Profile">
        <div className="account-head">
          <span className="avatar" style={{ backgroundColor: avatarColor(user.id) }} aria-hidden="true">
            {initialsOf(user.name)}
          </span>
          <div>
            <p className="account-name">{user.name}</p>
            <p className="muted">{user.email}</p>
          </div>
        </div>
        {draft === null ? (
          <button type="button" className="button button-primary" onClick={() => setDraft(draftOf(user))}>
            Edit Info
          </button>
        ) : (
          <form className="form" onSubmit={handleSubmit} noValidate>
            {FIELDS.map((field) => (
              <div className="field" key={field.key}>
                <label htmlFor={`account-${field.key}`}>{field.label}</label>
                <input
                  id={`account-${field.key}`}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  value={draft[field.key]}
                  aria-describedby={field.hint ? `account-${field.key}-hint` : undefined}
                  onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
                />
                {field.hint && (
                  <p id={`account-${field.key}-hint`} className="field-hint">
                    {field.hint}
                  </p>
                )}
              </div>
            ))}
            {saveError && (
              <p className="form-error" role="alert">
                {saveError}
              </p>
            )}
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={isSaving}>
                {isSaving && <Spinner />}
                Save Changes
              </button>
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  clearSaveError();
                  setDraft(null);
                }}
              >
                Cancel
              </button>
            </div>
          </form>
        )}
      </section>
      <section className="card account-card" aria-labelledby="account-sessions">
        <h2 id="account-sessions">Sessions</h2>
        <p className="muted">The sessions you host and the ones you joined: open, end or delete them.</p>
        <Link to="/my-sessions" className="button button-ghost">
          My sessions
        </Link>
      </section>
      <section className="card account-card" aria-labelledby="account-devices">
        <h2 id="account-devices">Devices</h2>
        <p className="muted">Signs you out in every browser, this one included.</p>
        <button type="button" className="button button-ghost" onClick={() => void logoutEverywhere()}>
          Sign out everywhere
        </button>
      </section>
      <ApiTokensSection />
      <ExportDataSection userId={user.id} />
      <DeleteAccountSection userId={user.id} />
    </div>
  );
}
