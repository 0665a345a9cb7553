import { type RefObject, useEffect, useState } from "react";

/**
 * True once `ref` has been at least `threshold` in view; it then stops observing, so the
 * element is revealed exactly once (spec §9: half in view).
 */
export function useRevealOnce(ref: RefObject<Element | null>, threshold = 0.5): boolean {
  const [isRevealed, setIsRevealed] = useState(false);

  useEffect(() => {
    const node = ref.current;
    if (!node || isRevealed) return;
    // Without IntersectionObserver the content must still show.
    if (typeof IntersectionObserver === "undefined") {
      setIsRevealed(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) {
            setIsRevealed(true);
            observer.unobserve(entry.target);
          }
        }
      },
      { threshold },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref, threshold, isRevealed]);

  return isRevealed;
}
