import { type KeyboardEvent, useRef, useState } from "react";
import type { ChatChannel } from "./channel";
import { setAtBottom } from "./store";

/**
 * The chat's text box: Enter sends, Shift+Enter starts a new line. The box empties as a
 * message goes, so the next can be typed (and sent) while it is on its way; messages go one
 * after another in the order they were sent. A refused message comes back to the box with the
 * reason beside it, unless something else was typed there meanwhile.
 */
export function useChatComposer(channel: ChatChannel | null, canSend: boolean) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  /** The last send begun: the next waits for it, so the server stores them in order. */
  const lastSend = useRef<Promise<unknown>>(Promise.resolve());

  async function submit() {
    if (!channel || !canSend) return;
    const sent = text;
    setText("");
    setError(null);
    // Our message is shown at the bottom: follow it there.
    setAtBottom(true);
    const sending = lastSend.current.then(() => channel.send(sent));
    lastSend.current = sending;
    const result = await sending;
    if (result.ok) return;
    setError(result.error.message);
    setText((current) => (current === "" ? sent : current));
  }

  return {
    text,
    error,
    change(value: string) {
      setText(value);
      if (error) setError(null);
    },
    submit,
    handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
      if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
      event.preventDefault();
      void submit();
    },
  };
}
