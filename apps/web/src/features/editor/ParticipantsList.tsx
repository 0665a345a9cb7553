import type { Presence } from "@ensemble/protocol";
import type { ReactNode } from "react";
import { isWithin, PRESENCE_MS, participantColor } from "../collab/presence";
import type { Activity } from "../collab/useActivity";

interface ParticipantsListProps {
  participants: Presence[];
  selfId: string | null;
  activity: Activity;
  followingId: string | null;
  onFollow: (person: Presence | null) => void;
  /** Extra per-person markers and controls (the roles feature's badge and host controls). */
  renderControls?: (person: Presence) => ReactNode;
}

function initial(name: string): string {
  return name.trim().charAt(0).toUpperCase() || "?";
}

/** Everyone in the session, in join order, with host, typing and active markers. */
export function ParticipantsList({
  participants,
  selfId,
  activity,
  followingId,
  onFollow,
  renderControls,
}: ParticipantsListProps) {
  return (
    <section className="sidebar-section" aria-labelledby="participants-heading">
      <h2 id="participants-heading" className="sidebar-heading">
        Participants <span className="sidebar-count">{participants.length}</span>
      </h2>
      <ul className="participants" data-testid="participants">
        {participants.map((person, index) => {
          const editedAt = activity.lastEdits.get(person.id) ?? null;
          const isTyping = isWithin(editedAt, activity.now, PRESENCE_MS.typing);
          const isActive = isWithin(editedAt, activity.now, PRESENCE_MS.active);
          return (
            <li key={person.id} className="participant">
              <span
                className="participant-avatar"
                style={{ backgroundColor: participantColor(index) }}
                aria-hidden="true"
              >
                {initial(person.name)}
              </span>
              <span className="participant-name">
                {person.name}
                {person.id === selfId && <span className="muted"> (you)</span>}
              </span>
              {person.isHost && <span className="participant-badge">Host</span>}
              {renderControls?.(person)}
              {person.id !== selfId && (
                <button
                  type="button"
                  className={`participant-follow${followingId === person.id ? " is-following" : ""}`}
                  aria-pressed={followingId === person.id}
                  aria-label={`Follow ${person.name}`}
                  onClick={() => onFollow(followingId === person.id ? null : person)}
                >
                  {followingId === person.id ? "Following" : "Follow"}
                </button>
              )}
              {isTyping ? (
                <span className="participant-typing">typing…</span>
              ) : (
                <span
                  className={`participant-dot${isActive ? " is-active" : ""}`}
                  title={isActive ? "Active" : "Idle"}
                >
                  <span className="visually-hidden">{isActive ? "active" : "idle"}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
