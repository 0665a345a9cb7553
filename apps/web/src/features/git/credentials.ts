import {
  GIT_MESSAGES,
  GIT_STORAGE_KEYS,
  GithubConsentResponseSchema,
  type GithubTarget,
  GithubTargetSchema,
  oauthErrorMessage,
} from "@ensemble/protocol";
import { ApiError, apiRequest } from "../../lib/api";

// localStorage throws in some privacy modes; the connection then lasts for this tab only.
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(key: string): string {
  try {
    return storage()?.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Storage unavailable or full: the store still holds the connection for this tab.
  }
}

/** What the authentication dialog was given, before it is checked. */
export interface GithubFields {
  token: string;
  owner: string;
  repo: string;
}

/**
 * The stored connection (spec keys githubToken, gitRepoOwner, gitRepoName), or null unless
 * all three are there and valid: storage is outside data.
 */
export function readStoredTarget(): GithubTarget | null {
  const parsed = GithubTargetSchema.safeParse({
    token: read(GIT_STORAGE_KEYS.githubToken),
    owner: read(GIT_STORAGE_KEYS.gitRepoOwner),
    repo: read(GIT_STORAGE_KEYS.gitRepoName),
  });
  return parsed.success ? parsed.data : null;
}

/** The stored owner and repository (kept after a disconnect), to fill the dialog in. */
export function readStoredRepository(): Omit<GithubFields, "token"> {
  return { owner: read(GIT_STORAGE_KEYS.gitRepoOwner), repo: read(GIT_STORAGE_KEYS.gitRepoName) };
}

/** Stores a connection GitHub accepted. */
export function storeTarget(target: GithubTarget): void {
  write(GIT_STORAGE_KEYS.githubToken, target.token);
  write(GIT_STORAGE_KEYS.gitRepoOwner, target.owner);
  write(GIT_STORAGE_KEYS.gitRepoName, target.repo);
}

/** Removes the token only: the owner and repository stay to fill the dialog in next time. */
export function forgetStoredToken(): void {
  write(GIT_STORAGE_KEYS.githubToken, null);
}

/**
 * Checks the dialog's fields in the spec's order (§5): every field filled in, then a token
 * that is not just blanks, then GitHub's naming rules for owner and repository.
 */
export function checkFields(
  fields: GithubFields,
): { ok: true; target: GithubTarget } | { ok: false; message: string } {
  if (fields.token === "" || fields.owner.trim() === "" || fields.repo.trim() === "")
    return { ok: false, message: GIT_MESSAGES.allFieldsRequired };
  if (fields.token.trim() === "") return { ok: false, message: GIT_MESSAGES.tokenRequired };
  const parsed = GithubTargetSchema.safeParse(fields);
  if (parsed.success) return { ok: true, target: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? GIT_MESSAGES.allFieldsRequired };
}

/** Where the host gets a token from their GitHub login instead of pasting one (the `repo` scope). */
export const consentUrl = (sessionId: string) =>
  `/api/auth/github?for=git&session=${encodeURIComponent(sessionId)}`;

/** What GitHub's consent for the Git panel sent back: a token and its login, or why not. */
export type ConsentAnswer = { token: string; login: string } | { error: string };

/**
 * Takes the consent's answer out of the address's fragment (where the server put it, since
 * browsers never send a fragment anywhere), removes it from the address and history, and opens
 * its sealed code with the server, this browser's state cookie going along: a link carrying
 * someone else's code gives nothing. An error comes as a code; its text is never shown.
 */
export async function takeConsentFromAddress(): Promise<ConsentAnswer | null> {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const code = params.get("githubCode");
  const error = params.get("githubError");
  if (!code && error === null) return null;
  window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  if (!code) return { error: oauthErrorMessage(error ?? "") };
  try {
    return await apiRequest("/api/auth/github/consent", GithubConsentResponseSchema, {
      method: "POST",
      body: { code },
      auth: false,
    });
  } catch (failure) {
    const message = failure instanceof ApiError ? failure.serverMessage : undefined;
    return { error: message || oauthErrorMessage("exchange_failed") };
  }
}
