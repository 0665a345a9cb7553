import { type RefObject, useCallback, useEffect, useRef } from "react";

/** Within this many px of the bottom counts as "at the bottom". */
const STICKY_PX = 24;

/**
 * Keeps `ref` scrolled to the bottom whenever its content (`contentRef`) changes size, unless
 * the user has scrolled up to read; scrolling back down resumes following. Sizes, not renders:
 * an output block grows after its terminal emulator has parsed what it was given.
 */
export function useAutoScroll(
  ref: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
): () => void {
  const isPinned = useRef(true);

  useEffect(() => {
    const element = ref.current;
    const content = contentRef.current;
    if (!element || !content) return;
    const follow = () => {
      if (isPinned.current) element.scrollTop = element.scrollHeight;
    };
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    // A shorter panel (the resize handle) keeps the newest line in view too.
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, contentRef]);

  return useCallback(() => {
    const element = ref.current;
    if (!element) return;
    isPinned.current = element.scrollHeight - element.scrollTop - element.clientHeight <= STICKY_PX;
  }, [ref]);
}
