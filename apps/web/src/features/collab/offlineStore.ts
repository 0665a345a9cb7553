/** How many sessions keep their document in IndexedDB (spec: saved code of the 5 most recent). */
export const MAX_OFFLINE_SESSIONS = 5;

const RECENT_KEY = "ensemble-recent-sessions";

/** The IndexedDB database holding a session's document for offline use. */
export function offlineDbName(sessionId: string): string {
  return `ensemble-doc-${sessionId}`;
}

/** Moves `sessionId` to the front of `recent`; returns the kept list and the ids that fell off. */
export function touchRecent(
  recent: readonly string[],
  sessionId: string,
  max = MAX_OFFLINE_SESSIONS,
): { kept: string[]; evicted: string[] } {
  const ordered = [sessionId, ...recent.filter((id) => id !== sessionId)];
  return { kept: ordered.slice(0, max), evicted: ordered.slice(max) };
}

function readRecent(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(RECENT_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function writeRecent(ids: string[]): void {
  try {
    window.localStorage.setItem(RECENT_KEY, JSON.stringify(ids));
  } catch {
    // Storage unavailable: nothing to evict by, and IndexedDB is likely unavailable too.
  }
}

/**
 * Marks a session as the most recently opened and deletes the offline copies of sessions
 * beyond the five most recent. A database still open in another tab is deleted once that
 * tab closes it (the browser queues the request).
 */
export function rememberSession(sessionId: string): void {
  const { kept, evicted } = touchRecent(readRecent(), sessionId);
  writeRecent(kept);
  for (const id of evicted) {
    try {
      window.indexedDB.deleteDatabase(offlineDbName(id));
    } catch {
      // IndexedDB unavailable (private mode): there is nothing stored to delete.
    }
  }
}

/** Forgets a session (it does not exist): drops it from the recent list. */
export function forgetSession(sessionId: string): void {
  writeRecent(readRecent().filter((id) => id !== sessionId));
}
