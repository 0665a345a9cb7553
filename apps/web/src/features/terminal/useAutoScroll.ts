import { type RefObject, useCallback, useLayoutEffect, useRef } from "react";

/** Within this many px of the bottom counts as "at the bottom". */
const STICKY_PX = 24;

/**
 * Keeps `ref` scrolled to the bottom whenever `content` changes, unless the user has
 * scrolled up to read; scrolling back down resumes following.
 */
export function useAutoScroll(ref: RefObject<HTMLElement | null>, content: unknown): () => void {
  const isPinned = useRef(true);

  useLayoutEffect(() => {
    void content;
    const element = ref.current;
    if (element && isPinned.current) element.scrollTop = element.scrollHeight;
  }, [ref, content]);

  return useCallback(() => {
    const element = ref.current;
    if (!element) return;
    isPinned.current = element.scrollHeight - element.scrollTop - element.clientHeight <= STICKY_PX;
  }, [ref]);
}
