import type { Ack, ShareKeys } from "@ensemble/protocol";
import { useState } from "react";
import { toast } from "react-toastify/unstyled";
import type { RolesChannel } from "./channel";
import { useRolesStore } from "./store";

/** A share link: the session's address with a key that decides a newcomer's role. */
export function shareLink(sessionId: string, key: string): string {
  return `${window.location.origin}/code-editor-dashboard/${encodeURIComponent(sessionId)}?key=${encodeURIComponent(key)}`;
}

const LINKS = [
  { key: "editKey", label: "Can edit" },
  { key: "viewKey", label: "Can view" },
] as const;

/** The host's access controls: the lock, who waits in the lobby, and the two share links. */
export function SessionAccessPanel({ roles }: { roles: RolesChannel | null }) {
  const { isLocked, waiting } = useRolesStore();
  const [keys, setKeys] = useState<ShareKeys | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  if (!roles) return null;

  const act = async <T,>(work: () => Promise<Ack<T>>, done?: (data: T) => void) => {
    setIsBusy(true);
    const result = await work();
    setIsBusy(false);
    if (result.ok) done?.(result.data);
    else toast.error(result.error.message);
  };
  const copy = (label: string, link: string) => {
    navigator.clipboard.writeText(link).then(
      () => toast.success(`"${label}" link copied`),
      () => toast.info("Select the link and copy it"),
    );
  };

  return (
    <section
      className="sidebar-section session-access"
      aria-labelledby="access-heading"
      data-testid="session-access"
    >
      <h2 id="access-heading" className="sidebar-heading">
        Access{" "}
        {waiting.length > 0 && (
          <span className="sidebar-count lobby-count" data-testid="lobby-count">
            {waiting.length} waiting
          </span>
        )}
      </h2>
      <button
        type="button"
        className="button button-ghost access-lock"
        aria-pressed={isLocked}
        disabled={isBusy}
        onClick={() => void act(() => roles.setLocked(!isLocked))}
      >
        {isLocked ? "Unlock session" : "Lock session"}
      </button>
      <p className="muted access-note">
        {isLocked ? "Locked: newcomers wait in the lobby for you." : "Open: anyone with a link joins."}
      </p>
      {waiting.length > 0 && (
        <ul className="lobby-list" aria-label="Waiting in the lobby">
          {waiting.map((person) => (
            <li key={person.id} className="lobby-entry">
              <span className="participant-name">{person.name}</span>
              <button
                type="button"
                className="button button-primary"
                disabled={isBusy}
                aria-label={`Admit ${person.name}`}
                onClick={() => void act(() => roles.decide(person.id, true))}
              >
                Admit
              </button>
              <button
                type="button"
                className="button button-ghost"
                disabled={isBusy}
                aria-label={`Refuse ${person.name}`}
                onClick={() => void act(() => roles.decide(person.id, false))}
              >
                Refuse
              </button>
            </li>
          ))}
        </ul>
      )}
      {keys ? (
        <div className="share-links">
          {LINKS.map(({ key, label }) => {
            const link = shareLink(roles.sessionId, keys[key]);
            return (
              <div key={key} className="share-link">
                <label>
                  {label}
                  <input
                    readOnly
                    value={link}
                    data-testid={`share-${key}`}
                    onFocus={(e) => e.target.select()}
                  />
                </label>
                <button type="button" className="button button-ghost" onClick={() => copy(label, link)}>
                  Copy
                </button>
              </div>
            );
          })}
          <p className="muted access-note">
            Once a view link exists, the bare session id lets newcomers view only.
          </p>
        </div>
      ) : (
        <button
          type="button"
          className="button button-ghost"
          disabled={isBusy}
          onClick={() => void act(() => roles.shareKeys(), setKeys)}
        >
          Share links
        </button>
      )}
    </section>
  );
}
