import { useEffect, useState } from "react";
import type { CollabSession } from "./CollabSession";
import { lastEditByUser, type PeerState } from "./presence";
import { useCollabStore } from "./store";

/** Who edited when, re-read on every awareness change and once a second (for the windows). */
export interface Activity {
  now: number;
  /** Latest edit per user id, on this machine's clock. */
  lastEdits: ReadonlyMap<string, number>;
  /** The file each other person has open (by user id; their latest tab wins). */
  files: ReadonlyMap<string, string>;
}

const EMPTY: Activity = { now: 0, lastEdits: new Map(), files: new Map() };

/** Which file each peer has open, by user id. */
function openFiles(peers: ReadonlyMap<number, PeerState>): Map<string, string> {
  const files = new Map<string, string>();
  for (const peer of peers.values()) if (peer.userId && peer.file) files.set(peer.userId, peer.file);
  return files;
}

/** The session's edit activity, for typing indicators and the active-user count. */
export function useActivity(session: CollabSession | null): Activity {
  const self = useCollabStore((s) => s.self);
  const [activity, setActivity] = useState<Activity>(EMPTY);

  useEffect(() => {
    if (!session) return;
    const refresh = () => {
      const me = self ? { id: self.id, lastEdit: session.lastLocalEdit } : null;
      const peers = session.peers();
      setActivity({
        now: Date.now(),
        lastEdits: lastEditByUser(peers, session.edits, me),
        files: openFiles(peers),
      });
    };
    // Cursor moves change awareness on every keystroke; a quarter second is soon enough.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const refreshSoon = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        refresh();
      }, 250);
    };
    refresh();
    const ticker = setInterval(refresh, 1000);
    session.awareness.on("change", refreshSoon);
    return () => {
      clearInterval(ticker);
      clearTimeout(pending);
      session.awareness.off("change", refreshSoon);
    };
  }, [session, self]);

  return activity;
}
