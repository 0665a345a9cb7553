import type { ApiToken, CreatedApiToken } from "@ensemble/protocol";
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../../lib/api";
import { deleteApiToken, getApiTokens, postApiToken } from "./apiTokensApi";

const messageOf = (error: unknown, fallback: string) =>
  (error instanceof ApiError && error.serverMessage) || fallback;

/**
 * The account page's API tokens: the list (null while loading), the token just created (its
 * secret, kept only until dismissed), and create and revoke with the server's refusals.
 */
export function useApiTokens() {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isCreating, setIsCreating] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    getApiTokens()
      .then((answer) => {
        if (isCurrent) setTokens(answer.tokens);
      })
      .catch((failure: unknown) => {
        if (isCurrent) setError(messageOf(failure, "Could not load your API tokens"));
      });
    return () => {
      isCurrent = false;
    };
  }, []);

  /** Resolves to true when the token was created (the form may clear). */
  const create = useCallback(async (name: string): Promise<boolean> => {
    setIsCreating(true);
    setError(null);
    try {
      const token = await postApiToken(name);
      const { token: _secret, ...listed } = token;
      setTokens((list) => [listed, ...(list ?? [])]);
      setCreated(token);
      return true;
    } catch (failure) {
      setError(messageOf(failure, "Could not create the token"));
      return false;
    } finally {
      setIsCreating(false);
    }
  }, []);

  const revoke = useCallback(async (id: string) => {
    setError(null);
    try {
      await deleteApiToken(id);
    } catch (failure) {
      // Already gone (revoked in another tab) is what was asked for.
      if (!(failure instanceof ApiError && failure.status === 404)) {
        setError(messageOf(failure, "Could not revoke the token"));
        return;
      }
    }
    setTokens((list) => (list ?? []).filter((token) => token.id !== id));
    setCreated((shown) => (shown?.id === id ? null : shown));
  }, []);

  const dismissCreated = useCallback(() => setCreated(null), []);

  return { tokens, created, error, isCreating, create, revoke, dismissCreated };
}
