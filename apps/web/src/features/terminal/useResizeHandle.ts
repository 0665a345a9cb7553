import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { heightForKey } from "./height";
import { setTerminalHeight, useTerminalStore } from "./store";

/**
 * Handlers for the drag handle above the panel: dragging up grows it, arrow keys (and
 * Page Up/Down, Home, End) resize it from the keyboard; always clamped to 100–400 px.
 */
export function useResizeHandle() {
  const drag = useRef<{ pointerId: number; startY: number; startHeight: number } | null>(null);

  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = {
        pointerId: event.pointerId,
        startY: event.clientY,
        startHeight: useTerminalStore.getState().height,
      };
    },
    onPointerMove(event: PointerEvent<HTMLElement>) {
      const current = drag.current;
      if (!current || current.pointerId !== event.pointerId) return;
      setTerminalHeight(current.startHeight + current.startY - event.clientY);
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      if (drag.current?.pointerId !== event.pointerId) return;
      drag.current = null;
      if (event.currentTarget.hasPointerCapture(event.pointerId))
        event.currentTarget.releasePointerCapture(event.pointerId);
    },
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      const next = heightForKey(useTerminalStore.getState().height, event.key);
      if (next === null) return;
      event.preventDefault();
      setTerminalHeight(next);
    },
  };
}
