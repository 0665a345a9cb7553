import type { WorkspaceEntry } from "@ensemble/collab";
import type { Language, Presence } from "@ensemble/protocol";
import { create } from "zustand";

/**
 * `connecting` until the first join answers; then CONNECTED while joined, OFFLINE while the
 * socket is down or not yet re-joined (CONNECTING for its first 3 s while the browser is
 * online: a cluster's handover or drain reconnects within that).
 */
export type ConnectionStatus = "connecting" | "connected" | "offline";

/** Why the session cannot be shown at all (the join was refused, the app is outdated). */
export interface SessionFailure {
  code: string;
  message: string;
}

interface CollabState {
  sessionId: string | null;
  status: ConnectionStatus;
  /** The server's text has arrived since the last (re)connect. */
  isSynced: boolean;
  /** The offline copy (IndexedDB) has been read. */
  isLocalLoaded: boolean;
  /**
   * There is a text to edit: the server's arrived once, or the offline copy held one. It
   * stays true while offline, so typing goes on and merges later.
   */
  hasDocument: boolean;
  self: Presence | null;
  participants: Presence[];
  language: Language;
  title: string;
  failure: SessionFailure | null;
  /** The host is ending the session (received `sessionEnding`). */
  isEnding: boolean;
  /** When the host ended the session (it is read-only until reopened), or null while open. */
  endedAt: string | null;
  /** The host deleted the session (received `sessionDeleted`): nothing of it is left to show. */
  isDeleted: boolean;
  /** The workspace's files (id and path) and folders, sorted by path. */
  files: WorkspaceEntry[];
  folders: string[];
}

const initial: CollabState = {
  sessionId: null,
  status: "connecting",
  isSynced: false,
  isLocalLoaded: false,
  hasDocument: false,
  self: null,
  participants: [],
  language: "javascript",
  title: "",
  failure: null,
  isEnding: false,
  endedAt: null,
  isDeleted: false,
  files: [],
  folders: [],
};

/** The live session's connection, people and language; written only by CollabSession. */
export const useCollabStore = create<CollabState>()(() => initial);

/** Starts a fresh state for `sessionId`. */
export function resetCollabStore(sessionId: string): void {
  useCollabStore.setState({ ...initial, sessionId });
}

/** Adds or replaces a participant (one entry per person). */
export function upsertParticipant(list: Presence[], person: Presence): Presence[] {
  const index = list.findIndex((p) => p.id === person.id);
  if (index === -1) return [...list, person];
  return list.map((p, i) => (i === index ? person : p));
}
