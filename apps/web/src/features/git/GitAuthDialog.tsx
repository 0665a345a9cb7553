import { type FormEvent, useEffect, useId, useState } from "react";
import { Dialog } from "../../ui/Dialog";
import { getProviders } from "../auth/authApi";
import { consentUrl, type GithubFields, readStoredRepository } from "./credentials";

interface GitAuthDialogProps {
  isOpen: boolean;
  /** The connect operation is running: 'Authenticating...'. */
  isBusy: boolean;
  /** Checks and sends the fields; resolves true once GitHub accepted them. */
  onSubmit: (fields: GithubFields) => Promise<boolean>;
  /** `isDone` is false when the host cancelled. */
  onClose: (isDone: boolean) => void;
  /** The session, for "Use my GitHub login" (shown when the server offers GitHub login). */
  sessionId: string | null;
  /** A token (and its login as the owner) that came back from GitHub's consent. */
  prefill: { token: string; login: string } | null;
}

const EMPTY: GithubFields = { token: "", owner: "", repo: "" };

/**
 * The code-hosting authentication dialog (spec §2): a password-style token, the repository's
 * owner and name (filled in from the last connection), Cancel and Authenticate.
 */
export function GitAuthDialog({ isOpen, isBusy, onSubmit, onClose, sessionId, prefill }: GitAuthDialogProps) {
  const [fields, setFields] = useState<GithubFields>(EMPTY);
  const [canUseLogin, setCanUseLogin] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!isOpen) return;
    // A stored token is never filled in: it stays only in storage, typed again after a
    // disconnect. One fresh from GitHub's consent is, with its login as the owner.
    const stored = readStoredRepository();
    setFields(
      prefill
        ? { token: prefill.token, owner: stored.owner || prefill.login, repo: stored.repo }
        : { ...EMPTY, ...stored },
    );
  }, [isOpen, prefill]);

  useEffect(() => {
    if (!isOpen || !sessionId) return;
    let isCurrent = true;
    getProviders()
      .then((providers) => {
        if (isCurrent) setCanUseLogin(providers.github);
      })
      .catch(() => {});
    return () => {
      isCurrent = false;
    };
  }, [isOpen, sessionId]);

  const handleCancel = () => {
    // The answer of a connect already sent would store the connection anyway.
    if (!isBusy) onClose(false);
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isBusy) return;
    if (await onSubmit(fields)) {
      setFields(EMPTY);
      onClose(true);
    }
  };

  const field = (name: keyof GithubFields, label: string, type: "text" | "password", hint?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        value={fields[name]}
        autoComplete="off"
        spellCheck={false}
        readOnly={isBusy}
        aria-describedby={hint ? `${id}-${name}-hint` : undefined}
        onChange={(event) => setFields((f) => ({ ...f, [name]: event.target.value }))}
      />
      {hint && (
        <p id={`${id}-${name}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );

  return (
    <Dialog isOpen={isOpen} title="GitHub Login" onClose={handleCancel}>
      <form className="form" onSubmit={(event) => void handleSubmit(event)} noValidate>
        {field(
          "token",
          "Personal access token",
          "password",
          "Kept in this browser only; sent to the server with each GitHub operation.",
        )}
        {canUseLogin && sessionId && !prefill && (
          <p className="field-hint">
            Or <a href={consentUrl(sessionId)}>use my GitHub login</a> (GitHub asks you to allow access to
            your repositories).
          </p>
        )}
        {field("owner", "Repository owner", "text")}
        {field("repo", "Repository name", "text")}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" disabled={isBusy} onClick={handleCancel}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={isBusy}>
            {isBusy ? "Authenticating..." : "Authenticate"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
