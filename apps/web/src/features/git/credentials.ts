import { GIT_MESSAGES, GIT_STORAGE_KEYS, type GithubTarget, GithubTargetSchema } from "@ensemble/protocol";

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
