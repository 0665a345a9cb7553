import type { MySessionsPage } from "@ensemble/protocol";
import { useCallback, useEffect, useState } from "react";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { pageAfterRemoval } from "./mySessions";
import { deleteSession, getMySessions, postEndSession } from "./mySessionsApi";

const messageOf = (error: unknown, fallback: string) =>
  (error instanceof ApiError && error.serverMessage) || fallback;

/** Already gone (deleted from another tab, or by the host meanwhile) is what a delete asks for. */
const isGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * My sessions, one page at a time from the server: the page shown (null while it loads), why
 * it failed, and the host's end and delete, each followed by a fresh read of the page.
 */
export function useMySessions(isSignedIn: boolean) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<MySessionsPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  /** The session an end or delete is on its way for. */
  const [busyId, setBusyId] = useState<string | null>(null);

  useEffect(() => {
    if (!isSignedIn) return;
    let isCurrent = true;
    setError(null);
    // `reloads` asks again after a change: the server's order and counts are the truth.
    void reloads;
    getMySessions(page)
      .then((answer) => {
        if (isCurrent) setData(answer);
      })
      .catch((failure: unknown) => {
        if (isCurrent) setError(messageOf(failure, "Could not load your sessions"));
      });
    return () => {
      isCurrent = false;
    };
  }, [isSignedIn, page, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  /** Resolves to true once the session ended for everyone. */
  const end = useCallback(
    async (sessionId: string): Promise<boolean> => {
      setBusyId(sessionId);
      try {
        await postEndSession(sessionId);
        toast.success("Session ended for everyone");
        return true;
      } catch (failure) {
        toast.error(messageOf(failure, "Could not end the session"));
        return false;
      } finally {
        setBusyId(null);
        reload();
      }
    },
    [reload],
  );

  /** Resolves to true once the session is deleted. */
  const remove = useCallback(
    async (sessionId: string): Promise<boolean> => {
      setBusyId(sessionId);
      try {
        await deleteSession(sessionId).catch((failure: unknown) => {
          if (!isGone(failure)) throw failure;
        });
        toast.success("Session deleted");
        const left = (data?.sessions.length ?? 1) - 1;
        setPage((current) => pageAfterRemoval(current, left));
        return true;
      } catch (failure) {
        toast.error(messageOf(failure, "Could not delete the session"));
        return false;
      } finally {
        setBusyId(null);
        reload();
      }
    },
    [data, reload],
  );

  return { page, setPage, data, error, busyId, end, remove };
}
