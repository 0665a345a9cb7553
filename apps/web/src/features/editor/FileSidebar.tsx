import type { Presence } from "@ensemble/protocol";
import type { CollabSession } from "../collab/CollabSession";
import type { Activity } from "../collab/useActivity";
import { gitChannel } from "../git/channel";
import { GitPanel } from "../git/GitPanel";
import { pullsChannel } from "../pulls/channel";
import { PullRequestList } from "../pulls/PullRequestList";
import { rolesChannel } from "../roles/channel";
import { ParticipantControls } from "../roles/ParticipantControls";
import { SessionAccessPanel } from "../roles/SessionAccessPanel";
import { Explorer } from "../workspace/Explorer";
import { ParticipantsList } from "./ParticipantsList";

interface FileSidebarProps {
  id: string;
  session: CollabSession | null;
  activePath: string | null;
  participants: Presence[];
  selfId: string | null;
  activity: Activity;
  isConnected: boolean;
  /** Files and git may change (connected, and the session not ended). */
  canEdit: boolean;
  /** Files can be created, renamed and deleted: offline too (queued until the connection is back). */
  canEditFiles: boolean;
  isHost: boolean;
  /** A viewer proposes nothing (the server refuses it too). */
  isViewer: boolean;
  followingId: string | null;
  onFollow: (person: Presence | null) => void;
  onOpened: () => void;
}

/** The explorer (the session's files), the Git panel, the participants and the pull requests. */
export function FileSidebar(props: FileSidebarProps) {
  return (
    <aside id={props.id} className="file-sidebar" aria-label="Files, Git, participants and pull requests">
      <Explorer
        session={props.session}
        activePath={props.activePath}
        participants={props.participants}
        selfId={props.selfId}
        activity={props.activity}
        canEdit={props.canEditFiles}
        onOpened={props.onOpened}
      />
      <GitPanel
        git={props.session?.channel(gitChannel) ?? null}
        isHost={props.isHost}
        isConnected={props.canEdit}
      />
      <ParticipantsList
        participants={props.participants}
        selfId={props.selfId}
        activity={props.activity}
        followingId={props.followingId}
        onFollow={props.onFollow}
        renderControls={(person) => (
          <ParticipantControls
            person={person}
            roles={props.session?.channel(rolesChannel) ?? null}
            isHost={props.isHost}
            isSelf={person.id === props.selfId}
          />
        )}
      />
      {props.isHost && <SessionAccessPanel roles={props.session?.channel(rolesChannel) ?? null} />}
      <PullRequestList
        pulls={props.session?.channel(pullsChannel) ?? null}
        isConnected={props.isConnected && !props.isViewer}
      />
    </aside>
  );
}
