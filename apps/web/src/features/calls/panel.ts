import { CALL_MESSAGES } from "@ensemble/protocol";
import { mainPeerId, type PeerState, type RemotePeer, type useCallStore } from "./store";

type CallState = ReturnType<typeof useCallStore.getState>;

/** The panel's element id (the top bar's toggle controls it) and the toggle's, for focus. */
export const CALL_PANEL_ID = "call-panel";
export const CALL_TOGGLE_ID = "call-panel-toggle";

/** What a tile knows of the person it shows; our own tile is always `connected`. */
export interface TileSubject {
  state: PeerState;
  error: string | null;
  isVideoOff: boolean;
  isScreenSharing: boolean;
  /** The <video> has shown a frame of the current stream (its `loadeddata`). */
  hasFrames: boolean;
}

/** The text laid over a tile's video, and whether it offers Try again. */
export interface TileNotice {
  text: string;
  tone: "info" | "error";
  canRetry: boolean;
}

/** Shown when a pair failed without saying why. */
const UNKNOWN_REASON = "connection failed";

/**
 * The one notice a tile shows, most important first: a failed pair (with Try again), a pair
 * still negotiating, a camera turned off, a stream with no frame yet; null once video plays.
 */
export function tileNotice(subject: TileSubject): TileNotice | null {
  if (subject.state === "error") {
    return { text: CALL_MESSAGES.tileError(subject.error ?? UNKNOWN_REASON), tone: "error", canRetry: true };
  }
  if (subject.state !== "connected") return { text: CALL_MESSAGES.connecting, tone: "info", canRetry: false };
  // A shared screen replaces the camera's track, so it shows even with the camera off.
  if (subject.isVideoOff && !subject.isScreenSharing) {
    return { text: CALL_MESSAGES.cameraOff, tone: "info", canRetry: false };
  }
  if (!subject.hasFrames) return { text: CALL_MESSAGES.videoLoading, tone: "info", canRetry: false };
  return null;
}

/**
 * We are in the call: joined, whatever the state of its pairs. A refused join also ends in
 * `error`, but with a `joinError`, and leaves us out.
 */
export function isInCall(state: Pick<CallState, "status" | "joinError">): boolean {
  const isJoined = state.status === "connecting" || state.status === "connected" || state.status === "error";
  return isJoined && state.joinError === null;
}

/** People in the call, ourselves included once joined. */
export function callCount(state: Pick<CallState, "status" | "joinError" | "peers">): number {
  return state.peers.length + (isInCall(state) ? 1 : 0);
}

/** Whom the main video shows: ourselves, a peer, or nobody (the 'No participant' tile). */
export type MainTile = { kind: "self" } | { kind: "peer"; peer: RemotePeer } | null;

/**
 * The main video: ourselves when we pinned our own thumbnail, else `mainPeerId`'s peer
 * (pinned, speaking, or first), else ourselves while alone in the call, else nobody.
 */
export function mainTile(
  state: Pick<CallState, "status" | "joinError" | "selfPeerId" | "peers" | "pinnedId" | "activeSpeakerId">,
): MainTile {
  const inCall = isInCall(state);
  if (inCall && state.pinnedId !== null && state.pinnedId === state.selfPeerId) return { kind: "self" };
  const id = mainPeerId(state);
  const peer = state.peers.find((p) => p.peerId === id);
  if (peer) return { kind: "peer", peer };
  return inCall ? { kind: "self" } : null;
}

/** The thumbnail's click: pin it as the main video, or unpin it when it already is pinned. */
export function togglePin(state: Pick<CallState, "pinnedId">, peerId: string): string | null {
  return state.pinnedId === peerId ? null : peerId;
}
