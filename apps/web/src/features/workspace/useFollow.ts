import type { Presence } from "@ensemble/protocol";
import { useCallback, useEffect, useState } from "react";
import { toast } from "react-toastify/unstyled";

/** Follow mode: whom we follow, and the ways it ends (Escape, our own typing or click, their leaving). */
export function useFollow(participants: Presence[]) {
  const [following, setFollowing] = useState<Presence | null>(null);
  const stop = useCallback(() => setFollowing(null), []);

  useEffect(() => {
    if (!following) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setFollowing(null);
    };
    window.addEventListener("keydown", handleKeyDown, true);
    return () => window.removeEventListener("keydown", handleKeyDown, true);
  }, [following]);

  useEffect(() => {
    if (following && !participants.some((p) => p.id === following.id)) {
      toast.info(`${following.name} left the session. You are no longer following them.`);
      setFollowing(null);
    }
  }, [following, participants]);

  return { following, follow: setFollowing, stop };
}
