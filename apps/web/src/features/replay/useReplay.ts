import { useEffect, useRef } from "react";
import type { ReplayChannel } from "./channel";
import { advance, PLAYBACK_TICK_MS } from "./playback";
import {
  moveTo,
  receiveFrame,
  receiveTimeline,
  refreshTimeline,
  setPlaying,
  setReplayError,
  useReplayStore,
} from "./store";

/**
 * The server meters seeks (each builds a document): at most one in flight and one per tick,
 * the latest moment wins, so dragging the slider never queues stale requests.
 */
const MIN_SEEK_GAP_MS = PLAYBACK_TICK_MS;

/**
 * While the panel is open, the timeline is asked for again this long after the history may
 * have grown (once per such stretch, however much was typed): the server has stored the edit by
 * then (it writes every 50 ms), and a timeline is a summary, cheap to answer.
 */
const LIVE_REFRESH_MS = 1000;

/** Drives the open replay panel: loads the timeline and keeps it live, seeks to the slider's moment, plays. */
export function useReplay(channel: ReplayChannel | null): void {
  const isOpen = useReplayStore((s) => s.isOpen);
  const hasTimeline = useReplayStore((s) => s.timeline !== null);
  const at = useReplayStore((s) => s.at);
  const isPlaying = useReplayStore((s) => s.isPlaying);
  const seeking = useRef<{ inFlight: boolean; wanted: number | null; lastAt: number }>({
    inFlight: false,
    wanted: null,
    lastAt: 0,
  });

  useEffect(() => {
    if (!isOpen || hasTimeline || !channel) return;
    let isCurrent = true;
    void channel.timeline().then((result) => {
      if (!isCurrent) return;
      if (result.ok) receiveTimeline(result.data);
      else setReplayError(result.error.message);
    });
    return () => {
      isCurrent = false;
    };
  }, [isOpen, hasTimeline, channel]);

  useEffect(() => {
    if (!isOpen || !hasTimeline || !channel) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = channel.onHistory(() => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void channel.timeline().then((result) => {
          if (isCurrent && result.ok && useReplayStore.getState().isOpen) refreshTimeline(result.data);
        });
      }, LIVE_REFRESH_MS);
    });
    return () => {
      isCurrent = false;
      stop();
      clearTimeout(timer);
    };
  }, [isOpen, hasTimeline, channel]);

  useEffect(() => {
    if (!isOpen || at === null || !channel) return;
    const state = seeking.current;
    state.wanted = at;
    const pump = () => {
      if (state.inFlight || state.wanted === null) return;
      const wait = state.lastAt + MIN_SEEK_GAP_MS - Date.now();
      if (wait > 0) {
        setTimeout(pump, wait);
        return;
      }
      const target = state.wanted;
      state.wanted = null;
      state.inFlight = true;
      state.lastAt = Date.now();
      void channel.seek(target).then((result) => {
        state.inFlight = false;
        if (!useReplayStore.getState().isOpen) return;
        if (result.ok) receiveFrame(result.data);
        else setReplayError(result.error.message);
        pump();
      });
    };
    pump();
  }, [isOpen, at, channel]);

  useEffect(() => {
    if (!isPlaying) return;
    let last = Date.now();
    const timer = setInterval(() => {
      const { at: now, speed, timeline } = useReplayStore.getState();
      const end = timeline?.end;
      if (now === null || end === null || end === undefined) return;
      const elapsed = Date.now() - last;
      last = Date.now();
      const next = advance(now, elapsed, speed, end);
      moveTo(next);
      if (next >= end) setPlaying(false);
    }, PLAYBACK_TICK_MS);
    return () => clearInterval(timer);
  }, [isPlaying]);
}
