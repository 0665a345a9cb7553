import { useEffect, useState } from "react";
import type { CollabSession } from "./CollabSession";
import { lastEditByUser } from "./presence";
import { useCollabStore } from "./store";

/** Who edited when, re-read on every awareness change and once a second (for the windows). */
export interface Activity {
  now: number;
  /** Latest edit per user id, on this machine's clock. */
  lastEdits: ReadonlyMap<string, number>;
}

const EMPTY: Activity = { now: 0, lastEdits: new Map() };

/** The session's edit activity, for typing indicators and the active-user count. */
export function useActivity(session: CollabSession | null): Activity {
  const self = useCollabStore((s) => s.self);
  const [activity, setActivity] = useState<Activity>(EMPTY);

  useEffect(() => {
    if (!session) return;
    const refresh = () => {
      const me = self ? { id: self.id, lastEdit: session.lastLocalEdit } : null;
      setActivity({ now: Date.now(), lastEdits: lastEditByUser(session.peers(), session.edits, me) });
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
