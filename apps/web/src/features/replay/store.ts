import type { ReplayFrame, ReplayTimeline } from "@ensemble/protocol";
import { create } from "zustand";

interface ReplayState {
  isOpen: boolean;
  timeline: ReplayTimeline | null;
  /** The slider's moment (ms since the epoch). */
  at: number | null;
  /** The project at the last moment answered (may lag `at` while a seek is in flight). */
  frame: ReplayFrame | null;
  isPlaying: boolean;
  speed: number;
  /** The file shown, by path; the first file of the frame when null or gone. */
  path: string | null;
  /** Why the last request failed, shown in the panel. */
  error: string | null;
}

const initial: ReplayState = {
  isOpen: false,
  timeline: null,
  at: null,
  frame: null,
  isPlaying: false,
  speed: 1,
  path: null,
  error: null,
};

/** The replay panel's state: one session's timeline, the moment shown, playback. */
export const useReplayStore = create<ReplayState>()(() => initial);

/** Opens the panel afresh (its timeline is asked for again) or closes it. */
export function setReplayOpen(isOpen: boolean): void {
  useReplayStore.setState({ ...initial, isOpen, speed: useReplayStore.getState().speed });
}

/** A timeline arrived: the slider starts at its end, the project as it is now. */
export function receiveTimeline(timeline: ReplayTimeline): void {
  useReplayStore.setState({ timeline, at: timeline.end, error: null });
}

/**
 * A newer timeline arrived while the panel is open (the history grew): a slider at the end
 * follows the new end, one moved back stays where it is.
 */
export function refreshTimeline(timeline: ReplayTimeline): void {
  useReplayStore.setState((s) => {
    const isFollowing = s.at === null || s.at === s.timeline?.end;
    return { timeline, at: isFollowing ? timeline.end : s.at };
  });
}

export function moveTo(at: number): void {
  useReplayStore.setState({ at });
}

export function receiveFrame(frame: ReplayFrame): void {
  useReplayStore.setState({ frame, error: null });
}

export function setPlaying(isPlaying: boolean): void {
  useReplayStore.setState((s) => {
    // Play from the start once the end is reached.
    const isAtEnd = s.at !== null && s.timeline?.end !== null && s.at === s.timeline?.end;
    return isPlaying && isAtEnd ? { isPlaying, at: s.timeline?.start ?? s.at } : { isPlaying };
  });
}

export function setSpeed(speed: number): void {
  useReplayStore.setState({ speed });
}

export function showFile(path: string): void {
  useReplayStore.setState({ path });
}

export function setReplayError(error: string | null): void {
  useReplayStore.setState({ error, isPlaying: false });
}
