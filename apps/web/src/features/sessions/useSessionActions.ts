import { CreateSessionBodySchema } from "@ensemble/protocol";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { useAuthStore } from "../auth/store";
import { postCreateSession, postJoinSession } from "./sessionApi";
import { useSessionStore } from "./store";

const NETWORK_MESSAGE = "Error connecting to server. Please check if the server is running.";

function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.kind === "network") return NETWORK_MESSAGE;
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}

/** Resolves to true when the flow finished and the caller may close its dialog. */
type Action = (input: string) => Promise<boolean>;

/** Create and join with the spec's checks, toasts and redirect (spec §4, §5, §8). */
export function useSessionActions(): { createSession: Action; joinSession: Action } {
  const navigate = useNavigate();
  const { setSessionLink, setCreating, setJoining } = useSessionStore.getState();

  const createSession = useCallback<Action>(
    async (title) => {
      if (!useAuthStore.getState().token) {
        window.alert("You must be logged in to create a session!");
        return false;
      }
      const body = CreateSessionBodySchema.safeParse({ title });
      if (!body.success) {
        toast.error(body.error.issues[0]?.message ?? "Session name is required");
        return false;
      }
      setCreating(true);
      try {
        const created = await postCreateSession(body.data.title);
        setSessionLink(created.session_link);
        toast.success(created.message);
        navigate(`/code-editor-dashboard/${encodeURIComponent(created.session_id)}`);
        return true;
      } catch (error) {
        toast.error(failureMessage(error, "Failed to create session"));
        return false;
      } finally {
        setCreating(false);
      }
    },
    [navigate, setCreating, setSessionLink],
  );

  const joinSession = useCallback<Action>(
    async (input) => {
      if (!useAuthStore.getState().token) {
        toast.error("You must be logged in to join a session!");
        return false;
      }
      const sessionId = input.trim();
      if (sessionId === "") {
        toast.error("Please enter a valid session ID!");
        return false;
      }
      setJoining(true);
      try {
        const joined = await postJoinSession(sessionId);
        toast.success(joined.message);
        navigate(`/code-editor-dashboard/${encodeURIComponent(joined.session_id)}`);
        return true;
      } catch (error) {
        toast.error(failureMessage(error, "Failed to join session"));
        return false;
      } finally {
        setJoining(false);
      }
    },
    [navigate, setJoining],
  );

  return { createSession, joinSession };
}
