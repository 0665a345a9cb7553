import { SessionFormDialog } from "./SessionFormDialog";
import { useSessionStore } from "./store";
import { useSessionActions } from "./useSessionActions";

interface Props {
  isOpen: boolean;
  onClose: () => void;
}

/** 'Start Building': names a new session; the server generates its id. */
export function CreateSessionDialog({ isOpen, onClose }: Props) {
  const { createSession } = useSessionActions();
  const isCreating = useSessionStore((s) => s.isCreating);
  return (
    <SessionFormDialog
      isOpen={isOpen}
      onClose={onClose}
      title="Create New Session"
      label="Session Name"
      placeholder="Enter session name..."
      submitLabel="Create Session"
      busyLabel="Creating..."
      isBusy={isCreating}
      onSubmit={createSession}
    />
  );
}
