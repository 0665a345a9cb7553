import { type RefObject, useEffect } from "react";

/**
 * Events that give the page user activation (HTML's "activation-triggering input events"):
 * a touch activates on its end, not its start; keydown lets keyboard users resume too.
 */
const GESTURES = ["click", "touchend", "keydown"] as const;

/** The browser refused to start playback until the person interacts with the page. */
export function isAutoplayBlocked(error: unknown): boolean {
  return error instanceof DOMException && error.name === "NotAllowedError";
}

/**
 * Starts `video` playing `stream` and, when the autoplay policy blocks it (an unmuted remote
 * tile before any click on the page), plays it again on the next click, touch or key press
 * anywhere in the document (spec §4).
 */
export function useAutoplayResume(videoRef: RefObject<HTMLVideoElement | null>, stream: MediaStream | null) {
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return;
    let isCurrent = true;
    let isWaiting = false;
    const stopWaiting = () => {
      if (!isWaiting) return;
      isWaiting = false;
      for (const type of GESTURES) document.removeEventListener(type, resume, true);
    };
    function resume() {
      stopWaiting();
      video?.play().catch(() => {
        // Still refused (the gesture did not count): nothing more to do until the stream changes.
      });
    }
    video.play().catch((error: unknown) => {
      // AbortError means a newer stream replaced this one: that stream's effect plays it.
      if (!isCurrent || !isAutoplayBlocked(error) || isWaiting) return;
      isWaiting = true;
      // Capture, so a handler that stops propagation cannot keep the call silent.
      for (const type of GESTURES) document.addEventListener(type, resume, true);
    });
    return () => {
      isCurrent = false;
      stopWaiting();
    };
  }, [videoRef, stream]);
}
