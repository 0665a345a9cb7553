import { STORAGE_KEYS, type User } from "@ensemble/protocol";

// localStorage throws in some privacy modes; auth must then degrade to memory-only.

/** The stored value under `key`, or null (also when storage is unavailable). */
export function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores `value` under `key`; null removes it. Does nothing when storage is unavailable. */
export function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the in-memory store still holds the session for this tab.
  }
}

/** The stored token, or null. */
export function readStoredToken(): string | null {
  return read(STORAGE_KEYS.token);
}

/** The stored user id (spec key userId), used when the user object is not loaded yet. */
export function readStoredUserId(): string | null {
  return read(STORAGE_KEYS.userId);
}

/** Writes the token; null removes it. */
export function storeToken(token: string | null): void {
  write(STORAGE_KEYS.token, token);
}

/** Writes the user under the keys user, userId and userName together. */
export function storeUser(user: User): void {
  write(STORAGE_KEYS.user, JSON.stringify(user));
  write(STORAGE_KEYS.userId, user.id);
  write(STORAGE_KEYS.userName, user.name);
}

/** Removes every auth key of the spec. */
export function clearAuthStorage(): void {
  for (const key of Object.values(STORAGE_KEYS)) write(key, null);
}
