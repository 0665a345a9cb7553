import type { Presence } from "@ensemble/protocol";
import type { CollabSession } from "../collab/CollabSession";
import type { Activity } from "../collab/useActivity";
import { Explorer } from "../workspace/Explorer";
import { ParticipantsList } from "./ParticipantsList";

interface FileSidebarProps {
  id: string;
  session: CollabSession | null;
  activePath: string | null;
  participants: Presence[];
  selfId: string | null;
  activity: Activity;
  canEdit: boolean;
  followingId: string | null;
  onFollow: (person: Presence | null) => void;
  onOpened: () => void;
}

/** The explorer (the session's files) and, below it, the participants. */
export function FileSidebar(props: FileSidebarProps) {
  return (
    <aside id={props.id} className="file-sidebar" aria-label="Files and participants">
      <Explorer
        session={props.session}
        activePath={props.activePath}
        participants={props.participants}
        selfId={props.selfId}
        activity={props.activity}
        canEdit={props.canEdit}
        onOpened={props.onOpened}
      />
      <ParticipantsList
        participants={props.participants}
        selfId={props.selfId}
        activity={props.activity}
        followingId={props.followingId}
        onFollow={props.onFollow}
      />
    </aside>
  );
}
