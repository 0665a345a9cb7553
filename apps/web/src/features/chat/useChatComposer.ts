import { type KeyboardEvent, useState } from "react";
import type { ChatChannel } from "./channel";
import { setAtBottom } from "./store";

/**
 * The chat's text box: Enter sends, Shift+Enter starts a new line; a refused message stays
 * in the box with the reason beside it.
 */
export function useChatComposer(channel: ChatChannel | null, canSend: boolean) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);

  async function submit() {
    if (!channel || !canSend || isSending) return;
    setIsSending(true);
    // Our message is shown at the bottom: follow it there.
    setAtBottom(true);
    const result = await channel.send(text);
    setIsSending(false);
    setError(result.ok ? null : result.error.message);
    if (result.ok) setText("");
  }

  return {
    text,
    error,
    isSending,
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
