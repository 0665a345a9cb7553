/** The spec's presence timings: typing indicator, remote cursor highlight, active window. */
export const PRESENCE_MS = {
  typing: 1500,
  highlight: 3000,
  active: 30_000,
} as const;

/** Typist colours (cursor, selection, label, line highlight): a palette of 7 by user id hash. */
export const TYPIST_COLORS = [
  "#f97316",
  "#22d3ee",
  "#a3e635",
  "#f472b6",
  "#facc15",
  "#60a5fa",
  "#c084fc",
] as const;

/** Participant list colours: a palette of 10, cycling by position in the list. */
export const PARTICIPANT_COLORS = [
  "#8b5cf6",
  "#06b6d4",
  "#22c55e",
  "#f59e0b",
  "#ec4899",
  "#3b82f6",
  "#ef4444",
  "#14b8a6",
  "#eab308",
  "#a855f7",
] as const;

/** A stable 32-bit FNV-1a hash, so a user keeps one colour on every screen. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The typist colour of a user id. */
export function typistColor(userId: string): string {
  return TYPIST_COLORS[hash(userId) % TYPIST_COLORS.length] ?? TYPIST_COLORS[0];
}

/** The participant colour at a list position. */
export function participantColor(index: number): string {
  return PARTICIPANT_COLORS[index % PARTICIPANT_COLORS.length] ?? PARTICIPANT_COLORS[0];
}

/** A peer's awareness state as far as presence needs it; anything malformed is dropped. */
export interface PeerState {
  userId: string | null;
  name: string;
  lastEdit: number | null;
  /** The selection head as a Yjs relative position (JSON), when the peer has a cursor. */
  head: unknown;
  /** The workspace path of the file the peer has open. */
  file: string | null;
  /** The first line the peer sees in their editor (for follow mode). */
  top: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a peer's awareness state, which is outside data: every field is checked. */
export function readPeerState(state: unknown): PeerState | null {
  if (!isRecord(state) || !isRecord(state.user)) return null;
  const { user } = state;
  const name =
    typeof user.name === "string" && user.name.trim() !== "" ? user.name.slice(0, 50) : "Anonymous";
  const lastEdit =
    typeof state.lastEdit === "number" && Number.isFinite(state.lastEdit) ? state.lastEdit : null;
  const head = isRecord(state.selection) ? state.selection.head : undefined;
  const file = typeof state.file === "string" && state.file.length <= 1024 ? state.file : null;
  const top =
    typeof state.top === "number" && Number.isInteger(state.top) && state.top > 0 ? state.top : null;
  return {
    userId: typeof user.id === "string" ? user.id : null,
    name,
    lastEdit,
    head: head ?? null,
    file,
    top,
  };
}

/**
 * When each peer last edited, on this machine's clock. A peer's `lastEdit` timestamp comes
 * from its own clock, which may be skewed; so a change of that value is stamped with our
 * receive time. Only the first sight of a peer trusts its timestamp (capped at now), since
 * we did not see that edit happen.
 */
export class EditClock {
  private readonly seen = new Map<number, { lastEdit: number; at: number }>();

  /** Records the states of the peers (never pass our own client id); returns true on change. */
  observe(peers: ReadonlyMap<number, PeerState>, now: number): boolean {
    let changed = false;
    for (const [clientId, peer] of peers) {
      if (peer.lastEdit === null) continue;
      const previous = this.seen.get(clientId);
      if (previous?.lastEdit === peer.lastEdit) continue;
      const at = previous ? now : Math.min(now, peer.lastEdit);
      this.seen.set(clientId, { lastEdit: peer.lastEdit, at });
      changed = true;
    }
    for (const clientId of this.seen.keys()) {
      if (!peers.has(clientId)) {
        this.seen.delete(clientId);
        changed = true;
      }
    }
    return changed;
  }

  /** Local time of the peer's last edit, or null if it has not edited. */
  editedAt(clientId: number): number | null {
    return this.seen.get(clientId)?.at ?? null;
  }
}

/** True when an edit at `editedAt` is within `windowMs` of `now`. */
export function isWithin(editedAt: number | null, now: number, windowMs: number): boolean {
  return editedAt !== null && now - editedAt < windowMs;
}

/** Our peers' states by client id (our own entry left out), each read defensively. */
export function readPeers(states: ReadonlyMap<number, unknown>, ownClientId: number): Map<number, PeerState> {
  const peers = new Map<number, PeerState>();
  for (const [clientId, state] of states) {
    if (clientId === ownClientId) continue;
    const peer = readPeerState(state);
    if (peer) peers.set(clientId, peer);
  }
  return peers;
}

/**
 * The latest edit time of each person (by user id, over all their tabs), ours included.
 * A person is typing within 1.5 s of it and active within 30 s.
 */
export function lastEditByUser(
  peers: ReadonlyMap<number, PeerState>,
  clock: EditClock,
  self: { id: string; lastEdit: number | null } | null,
): Map<string, number> {
  const result = new Map<string, number>();
  const note = (userId: string, at: number | null) => {
    if (at !== null && at > (result.get(userId) ?? Number.NEGATIVE_INFINITY)) result.set(userId, at);
  };
  for (const [clientId, peer] of peers) if (peer.userId) note(peer.userId, clock.editedAt(clientId));
  if (self) note(self.id, self.lastEdit);
  return result;
}
