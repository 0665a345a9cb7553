import type { ChatMessage } from "@ensemble/protocol";
import { type RefObject, useCallback, useLayoutEffect, useRef } from "react";
import { AT_BOTTOM_PX } from "./panel";
import { setAtBottom, useChatStore } from "./store";

/**
 * Keeps the chat list at its newest message while it is there (opening the panel puts it
 * there), keeps what the reader sees in place when earlier messages are added above, and
 * tells the store whether the list is at the bottom (unread counting).
 */
export function useChatScroll(
  ref: RefObject<HTMLElement | null>,
  messages: readonly ChatMessage[],
  isOpen: boolean,
): () => void {
  const previous = useRef<{ height: number; firstId: number | undefined }>({ height: 0, firstId: undefined });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || !isOpen) return;
    const firstId = messages[0]?.id;
    if (useChatStore.getState().isAtBottom) element.scrollTop = element.scrollHeight;
    else if (previous.current.firstId !== undefined && firstId !== previous.current.firstId)
      element.scrollTop += element.scrollHeight - previous.current.height;
    previous.current = { height: element.scrollHeight, firstId };
  }, [ref, messages, isOpen]);

  return useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const isAtBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM_PX;
    if (isAtBottom !== useChatStore.getState().isAtBottom) setAtBottom(isAtBottom);
  }, [ref]);
}
