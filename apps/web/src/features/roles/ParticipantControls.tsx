import type { Ack, Presence } from "@ensemble/protocol";
import { useState } from "react";
import { toast } from "react-toastify/unstyled";
import type { RolesChannel } from "./channel";

interface ParticipantControlsProps {
  person: Presence;
  roles: RolesChannel | null;
  /** We are the host (the server checks it again for every control). */
  isHost: boolean;
  isSelf: boolean;
}

/** A participant's role badge and, for the host, their controls: role, host transfer, removal. */
export function ParticipantControls({ person, roles, isHost, isSelf }: ParticipantControlsProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const badge = person.role === "viewer" && <span className="participant-badge is-viewer">Viewer</span>;
  if (!isHost || isSelf || person.role === "host" || !roles) return badge || null;

  const act = async (work: () => Promise<Ack<unknown>>, done: string) => {
    setIsBusy(true);
    const result = await work();
    setIsBusy(false);
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    toast.success(done);
    setIsOpen(false);
  };
  const controlsId = `controls-${person.id}`;
  return (
    <>
      {badge}
      <button
        type="button"
        className="participant-follow participant-manage"
        aria-expanded={isOpen}
        aria-controls={controlsId}
        aria-label={`Manage ${person.name}`}
        onClick={() => setIsOpen((open) => !open)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {isOpen && (
        <fieldset id={controlsId} className="participant-controls" disabled={isBusy}>
          <legend className="visually-hidden">Manage {person.name}</legend>
          <select
            value={person.role}
            aria-label={`Role of ${person.name}`}
            onChange={(event) => {
              const role = event.target.value === "viewer" ? "viewer" : "editor";
              void act(
                () => roles.setRole(person.id, role),
                `${person.name} is now ${role === "viewer" ? "a viewer" : "an editor"}`,
              );
            }}
          >
            <option value="editor">Can edit</option>
            <option value="viewer">Can view</option>
          </select>
          {!person.isGuest && (
            <button
              type="button"
              className="button button-ghost"
              onClick={() => void act(() => roles.transferHost(person.id), `${person.name} is now the host`)}
            >
              Make host
            </button>
          )}
          <button
            type="button"
            className="button button-danger"
            onClick={() => void act(() => roles.remove(person.id), `${person.name} was removed`)}
          >
            Remove
          </button>
        </fieldset>
      )}
    </>
  );
}
