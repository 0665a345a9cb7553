import { type AccountDeletionPreview, type DeleteAccountBody, oauthErrorMessage } from "@ensemble/protocol";
import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { deleteAccount, getDeletionPreview } from "./accountApi";
import { useAuthStore } from "./store";

/**
 * The one-time code (or error) a GitHub re-sign-in for a deletion brings back in the page's
 * fragment, taken out of the address at once so it stays in no history entry.
 */
function takeReauthFragment(): { code?: string; error?: string } {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const code = params.get("deleteCode") ?? undefined;
  const error = params.get("deleteError") ?? undefined;
  if (code === undefined && error === undefined) return {};
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return { ...(code !== undefined && { code }), ...(error !== undefined && { error }) };
}

/**
 * The account page's "Delete account": loads what it would do (for the dialog's counts),
 * deletes with the password or a GitHub re-sign-in, then signs this browser out.
 */
export function useDeleteAccount(userId: string) {
  const navigate = useNavigate();
  const [preview, setPreview] = useState<AccountDeletionPreview | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [githubCode, setGithubCode] = useState<string | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setPreview(await getDeletionPreview(userId));
    } catch (failure) {
      setError(
        (failure instanceof ApiError && failure.serverMessage) || "Could not load your account's sessions",
      );
    }
  }, [userId]);

  // Back from GitHub: the dialog opens again, ready to delete with the code.
  useEffect(() => {
    const { code, error: reauthError } = takeReauthFragment();
    if (code === undefined && reauthError === undefined) return;
    setIsOpen(true);
    void load();
    if (code !== undefined) setGithubCode(code);
    else if (reauthError !== undefined) setError(oauthErrorMessage(reauthError));
  }, [load]);

  const open = useCallback(() => {
    setIsOpen(true);
    setGithubCode(null);
    void load();
  }, [load]);

  const close = useCallback(() => {
    setIsOpen(false);
    setError(null);
    setGithubCode(null);
  }, []);

  const confirm = useCallback(
    async (body: DeleteAccountBody) => {
      setIsDeleting(true);
      setError(null);
      try {
        const answer = await deleteAccount(userId, body);
        useAuthStore.getState().logout();
        navigate("/");
        toast.success(answer.message);
      } catch (failure) {
        setError((failure instanceof ApiError && failure.serverMessage) || "Could not delete your account");
        // A GitHub code is used up by any try.
        setGithubCode(null);
      } finally {
        setIsDeleting(false);
      }
    },
    [userId, navigate],
  );

  return { preview, isOpen, open, close, githubCode, isDeleting, error, confirm };
}
