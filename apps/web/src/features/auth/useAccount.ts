import type { UpdateUserBody, User } from "@ensemble/protocol";
import { useCallback, useEffect, useState } from "react";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { readStoredUserId } from "../../lib/storage";
import { getUserRecord, putUserRecord } from "./authApi";
import { useAuthStore } from "./store";

/** The editable fields of the account form; an empty password means "unchanged". */
export interface AccountDraft {
  name: string;
  email: string;
  password: string;
}

/** Only the fields that differ from `user`; password only when filled (spec §5). */
export function changedFields(user: User, draft: AccountDraft): UpdateUserBody {
  const body: UpdateUserBody = {};
  if (draft.name.trim() !== user.name) body.name = draft.name.trim();
  if (draft.email.trim() !== user.email) body.email = draft.email.trim();
  if (draft.password !== "") body.password = draft.password;
  return body;
}

/** Loads the signed-in user's record and saves changes to it. */
export function useAccount() {
  const token = useAuthStore((s) => s.token);
  const storeUser = useAuthStore((s) => s.user);
  const setUser = useAuthStore((s) => s.setUser);
  const userId = storeUser?.id ?? readStoredUserId();
  const [record, setRecord] = useState<User | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    if (!token || !userId) return;
    let isCurrent = true;
    getUserRecord(userId)
      .then((answer) => {
        if (isCurrent) setRecord(answer.data);
      })
      .catch(() => {
        if (isCurrent) toast.error("Failed to fetch user details");
      });
    return () => {
      isCurrent = false;
    };
  }, [token, userId]);

  /** Resolves to true when edit mode may close. */
  const save = useCallback(
    async (draft: AccountDraft): Promise<boolean> => {
      const current = record ?? storeUser;
      if (!current) return false;
      const body = changedFields(current, draft);
      if (Object.keys(body).length === 0) return true;
      setIsSaving(true);
      setSaveError(null);
      try {
        const answer = await putUserRecord(current.id, body);
        // A new password ended every earlier token; the fresh one keeps this browser signed in.
        if (answer.token) useAuthStore.getState().setToken(answer.token);
        setRecord(answer.data);
        setUser(answer.data);
        toast.success("Profile updated successfully");
        return true;
      } catch (error) {
        setSaveError(error instanceof ApiError && error.serverMessage ? error.serverMessage : null);
        toast.error("Failed to update profile");
        return false;
      } finally {
        setIsSaving(false);
      }
    },
    [record, storeUser, setUser],
  );

  return {
    hasToken: Boolean(token),
    user: record ?? storeUser,
    isSaving,
    saveError,
    clearSaveError: () => setSaveError(null),
    save,
  };
}
