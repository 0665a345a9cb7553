import { SessionFormDialog } from "./SessionFormDialog";
import { useSessionStore } from "./store";
import { useSessionActions } from "./useSessionActions";

interface Props {
  isOpen: boolean;
  onClose: () => void;
}

/** 'Collaborate': joins an existing session by its id. */
export function JoinSessionDialog({ isOpen, onClose }: Props) {
  const { joinSession } = useSessionActions();
  const isJoining = useSessionStore((s) => s.isJoining);
  return (
    <SessionFormDialog
      isOpen={isOpen}
      onClose={onClose}
      title="Join Existing Session"
      label="Session ID"
      placeholder="Enter session ID..."
      submitLabel="Join Session"
      busyLabel="Joining..."
      isBusy={isJoining}
      onSubmit={joinSession}
    />
  );
}
