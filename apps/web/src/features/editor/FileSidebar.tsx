import type { Presence } from "@ensemble/protocol";
import type { Activity } from "../collab/useActivity";
import { FileTree } from "./FileTree";
import { ParticipantsList } from "./ParticipantsList";
import { sessionTree } from "./tree";

interface FileSidebarProps {
  id: string;
  file: string;
  participants: Presence[];
  selfId: string | null;
  activity: Activity;
  onSelectFile: () => void;
}

/** The explorer (the session's files) and, below it, the participants. */
export function FileSidebar({ id, file, participants, selfId, activity, onSelectFile }: FileSidebarProps) {
  return (
    <aside id={id} className="file-sidebar" aria-label="Files and participants">
      <section className="sidebar-section" aria-labelledby="explorer-heading">
        <h2 id="explorer-heading" className="sidebar-heading">
          Explorer
        </h2>
        <FileTree root={sessionTree(file)} selectedFile={file} onSelectFile={onSelectFile} />
      </section>
      <ParticipantsList participants={participants} selfId={selfId} activity={activity} />
    </aside>
  );
}
