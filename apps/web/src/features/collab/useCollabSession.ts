import { useEffect, useState } from "react";
import { toast } from "react-toastify/unstyled";
import type { ChannelDef } from "../../lib/sessionChannels";
import { useAuthStore } from "../auth/store";
import { CollabSession } from "./CollabSession";

/**
 * Opens the session with `channels` (a module constant) for as long as the component is
 * mounted (and reopens it when the user signs in or out, since the socket's identity
 * changes). Null until opened.
 */
export function useCollabSession(
  sessionId: string,
  channels: readonly ChannelDef<unknown>[],
): CollabSession | null {
  const token = useAuthStore((s) => s.token);
  const [session, setSession] = useState<CollabSession | null>(null);
  // Bumped when the server refused our copy: the session is opened afresh from the server.
  const [generation, setGeneration] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation reopens the session
  useEffect(() => {
    const { user } = useAuthStore.getState();
    const next = new CollabSession({
      sessionId,
      token,
      userName: user?.name ?? "Anonymous",
      userId: user?.id ?? null,
      shareKey: new URLSearchParams(window.location.search).get("key") ?? undefined,
      channels,
      onTokenRejected: () => {
        toast.info("Your sign-in has expired. You are now in the session as Anonymous.");
        useAuthStore.getState().logout();
      },
      onRefused: (message) => {
        toast.error(`${message} Your last change was not kept; the session reloaded from the server.`);
        setGeneration((n) => n + 1);
      },
    });
    next.start();
    setSession(next);
    return () => {
      next.destroy();
      setSession(null);
    };
  }, [sessionId, token, generation, channels]);

  return session;
}
