import { API_TOKEN_LIMITS } from "@ensemble/protocol";
import { type FormEvent, useState } from "react";
import { Spinner } from "../../ui/Spinner";
import { useApiTokens } from "./useApiTokens";

const formatDate = (iso: string) => new Date(iso).toLocaleString();

/** The account page's personal API tokens: create (the secret shown once), list, revoke. */
export function ApiTokensSection() {
  const { tokens, created, error, isCreating, create, revoke, dismissCreated } = useApiTokens();
  const [name, setName] = useState("");
  const [isCopied, setIsCopied] = useState(false);

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsCopied(false);
    if (await create(name)) setName("");
  }

  async function handleCopy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret);
      setIsCopied(true);
    } catch {
      setIsCopied(false);
    }
  }

  return (
    <section className="card account-card" aria-labelledby="account-api-tokens">
      <h2 id="account-api-tokens">API tokens</h2>
      <p className="muted">
        For Piston clients and scripts: a token runs code through <code>/api/v2/execute</code> and{" "}
        <code>/api/v2/connect</code>, and nothing else. Send it as{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      {created && (
        <div className="api-token-created" role="status">
          <p>
            Your new token <strong>{created.name}</strong>. Copy it now: it is not shown again.
          </p>
          <div className="field">
            <label htmlFor="api-token-secret">New API token</label>
            <input
              id="api-token-secret"
              className="api-token-secret"
              type="text"
              readOnly
              value={created.token}
              onFocus={(event) => event.target.select()}
            />
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void handleCopy(created.token)}
            >
              {isCopied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="button button-ghost" onClick={dismissCreated}>
              Done
            </button>
          </div>
        </div>
      )}
      <form className="form" onSubmit={handleCreate} noValidate>
        <div className="field">
          <label htmlFor="api-token-name">Token name</label>
          <input
            id="api-token-name"
            type="text"
            autoComplete="off"
            maxLength={API_TOKEN_LIMITS.nameMax}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={isCreating}>
            {isCreating && <Spinner />}
            Create token
          </button>
        </div>
      </form>
      {tokens === null ? (
        !error && (
          <p className="muted" role="status">
            <Spinner /> Loading your tokens…
          </p>
        )
      ) : tokens.length === 0 ? (
        <p className="muted">You have no API tokens.</p>
      ) : (
        <ul className="api-token-list" aria-label="Your API tokens">
          {tokens.map((token) => (
            <li key={token.id}>
              <div>
                <p className="api-token-name">{token.name}</p>
                <p className="muted">
                  Created {formatDate(token.createdAt)} ·{" "}
                  {token.lastUsedAt ? `last used ${formatDate(token.lastUsedAt)}` : "never used"}
                </p>
              </div>
              <button
                type="button"
                className="button button-ghost"
                aria-label={`Revoke ${token.name}`}
                onClick={() => void revoke(token.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
