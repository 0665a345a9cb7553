import type { LobbyEntry } from "@ensemble/protocol";
import { create } from "zustand";

/** Where this browser stands at a locked session's door. */
export type LobbyStatus = "none" | "waiting" | "refused";

interface RolesState {
  sessionId: string | null;
  /** Newcomers wait in the lobby. */
  isLocked: boolean;
  /** Who waits (the host's view; empty for everyone else). */
  waiting: LobbyEntry[];
  /** Our own place at the door. */
  lobby: LobbyStatus;
}

const initial: RolesState = { sessionId: null, isLocked: false, waiting: [], lobby: "none" };

/** The session's lock, its lobby and our place in it; written only by RolesChannel. */
export const useRolesStore = create<RolesState>()(() => initial);

export function resetRolesStore(sessionId: string): void {
  useRolesStore.setState({ ...initial, sessionId });
}
