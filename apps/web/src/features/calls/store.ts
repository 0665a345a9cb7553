import { create } from "zustand";

/**
 * The call as the panel shows it: `idle` until Join call, `joining` while devices and the
 * server answer, then `connecting` until every peer is connected, `connected`, or `error`
 * (spec §4's call connection states, plus ours before and during joining).
 */
export type CallStatus = "idle" | "joining" | "connecting" | "connected" | "error";

/** Spec §4's per-peer handshake states. */
export type PeerState =
  | "new"
  | "creating-offer"
  | "offer-sent"
  | "handling-offer"
  | "answer-sent"
  | "connected"
  | "error";

/** Someone else in the call (one browser tab). */
export interface RemotePeer {
  peerId: string;
  /** Their presence id (user id or guest id). */
  participantId: string;
  name: string;
  isMuted: boolean;
  isVideoOff: boolean;
  isScreenSharing: boolean;
  state: PeerState;
  /** Why the pair failed, while `state` is `error`. */
  error: string | null;
  /** What they send, once their first track arrived. */
  stream: MediaStream | null;
}

/** A peer as first seen: connected to nobody yet, its media as given. */
export function newPeer(peerId: string, known: Partial<RemotePeer> = {}): RemotePeer {
  return {
    peerId,
    participantId: "",
    name: "",
    isMuted: false,
    isVideoOff: false,
    isScreenSharing: false,
    state: "new",
    error: null,
    stream: null,
    ...known,
  };
}

/** This tab's own media. */
export interface LocalMedia {
  stream: MediaStream | null;
  isMuted: boolean;
  isVideoOff: boolean;
  isScreenSharing: boolean;
  /** The camera failed and we joined with the microphone only. */
  isAudioOnly: boolean;
}

interface CallState {
  status: CallStatus;
  isPanelOpen: boolean;
  selfPeerId: string | null;
  local: LocalMedia;
  /** In the order they joined. */
  peers: RemotePeer[];
  /** The call panel's alert (spec §8's 'Camera and microphone access denied…' family), or null. */
  alert: string | null;
  /** Why joining failed (the call is full, the server refused), or null. */
  joinError: string | null;
  /** The peer who spoke last (loudest over a threshold), for the main video. */
  activeSpeakerId: string | null;
  /** The peer clicked for the main video (null: follow the active speaker). */
  pinnedId: string | null;
}

const initialLocal: LocalMedia = {
  stream: null,
  isMuted: false,
  isVideoOff: false,
  isScreenSharing: false,
  isAudioOnly: false,
};

const initial: CallState = {
  status: "idle",
  isPanelOpen: false,
  selfPeerId: null,
  local: initialLocal,
  peers: [],
  alert: null,
  joinError: null,
  activeSpeakerId: null,
  pinnedId: null,
};

/** The session's call; written by CallSession (media, peers) and the panel (open, pinned). */
export const useCallStore = create<CallState>()(() => initial);

/** A fresh state for a new session (the panel stays as the person left it). */
export function resetCall(): void {
  useCallStore.setState((s) => ({ ...initial, isPanelOpen: s.isPanelOpen }));
}

/** Back to before Join call, keeping the panel open. */
export function leftCall(): void {
  useCallStore.setState((s) => ({ ...initial, isPanelOpen: s.isPanelOpen, pinnedId: null }));
}

export function setLocal(change: Partial<LocalMedia>): void {
  useCallStore.setState((s) => ({ local: { ...s.local, ...change } }));
}

/** Changes one peer (nothing when it has gone). */
export function updatePeer(peerId: string, change: Partial<RemotePeer>): void {
  useCallStore.setState((s) => ({
    peers: s.peers.map((p) => (p.peerId === peerId ? { ...p, ...change } : p)),
  }));
}

export function addPeer(peer: RemotePeer): void {
  useCallStore.setState((s) => ({
    peers: [...s.peers.filter((p) => p.peerId !== peer.peerId), peer],
  }));
}

export function removePeer(peerId: string): void {
  useCallStore.setState((s) => ({
    peers: s.peers.filter((p) => p.peerId !== peerId),
    pinnedId: s.pinnedId === peerId ? null : s.pinnedId,
    activeSpeakerId: s.activeSpeakerId === peerId ? null : s.activeSpeakerId,
  }));
}

/** The call's status from its peers: connected once every peer is, error if any failed. */
export function statusFromPeers(peers: readonly RemotePeer[]): CallStatus {
  if (peers.some((p) => p.state === "error")) return "error";
  if (peers.every((p) => p.state === "connected")) return "connected";
  return "connecting";
}

export function setPanelOpen(isOpen: boolean): void {
  useCallStore.setState({ isPanelOpen: isOpen });
}

export function pin(peerId: string | null): void {
  useCallStore.setState({ pinnedId: peerId });
}

/** Whose video the main tile shows: the pinned peer, else the active speaker, else the first. */
export function mainPeerId(state: Pick<CallState, "peers" | "pinnedId" | "activeSpeakerId">): string | null {
  const ids = new Set(state.peers.map((p) => p.peerId));
  if (state.pinnedId && ids.has(state.pinnedId)) return state.pinnedId;
  if (state.activeSpeakerId && ids.has(state.activeSpeakerId)) return state.activeSpeakerId;
  return state.peers[0]?.peerId ?? null;
}
