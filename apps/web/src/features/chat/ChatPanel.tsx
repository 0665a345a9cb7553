import { CHAT_LIMITS, type ChatMessage } from "@ensemble/protocol";
import { useRef } from "react";
import { CloseButton } from "../../ui/CloseButton";
import { typistColor } from "../collab/presence";
import { useCollabStore } from "../collab/store";
import type { ChatChannel } from "./channel";
import { formatSentAt } from "./messages";
import { CHAT_INPUT_ID, CHAT_PANEL_ID, CHAT_TOGGLE_ID, SHOW_COUNT_FROM } from "./panel";
import { setChatOpen, useChatStore } from "./store";
import { useChatComposer } from "./useChatComposer";
import { useChatScroll } from "./useChatScroll";

/**
 * The session chat beside the editor: its messages (plain text, with author and time), earlier
 * pages on request, and the text box. It stays mounted while closed, so it keeps its place.
 */
export function ChatPanel({ channel }: { channel: ChatChannel | null }) {
  const isOpen = useChatStore((s) => s.isOpen);
  const messages = useChatStore((s) => s.messages);
  const hasMore = useChatStore((s) => s.hasMore);
  const isLoadingEarlier = useChatStore((s) => s.isLoadingEarlier);
  const selfId = useCollabStore((s) => s.self?.id ?? null);
  const isConnected = useCollabStore((s) => s.status === "connected");
  const isEnded = useCollabStore((s) => s.endedAt !== null);
  const logRef = useRef<HTMLDivElement>(null);
  const handleScroll = useChatScroll(logRef, messages, isOpen);

  const handleClose = () => {
    setChatOpen(false);
    document.getElementById(CHAT_TOGGLE_ID)?.focus();
  };

  return (
    <aside
      id={CHAT_PANEL_ID}
      className="chat-panel"
      aria-labelledby="chat-panel-title"
      hidden={!isOpen}
      data-testid="chat-panel"
    >
      <header className="chat-header">
        <h2 id="chat-panel-title" className="chat-title">
          Chat
        </h2>
        <CloseButton label="Close chat" onClick={handleClose} />
      </header>
      <div
        ref={logRef}
        className="chat-log"
        role="log"
        aria-live="polite"
        aria-label="Chat messages"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard
        tabIndex={0}
        onScroll={handleScroll}
      >
        {hasMore && (
          <button
            type="button"
            className="button chat-earlier"
            disabled={isLoadingEarlier || channel === null}
            onClick={() => channel?.loadEarlier()}
          >
            {isLoadingEarlier ? "Loading…" : "Load earlier messages"}
          </button>
        )}
        {messages.length === 0 ? (
          <p className="chat-empty">No messages yet. Messages here reach everyone in the session.</p>
        ) : (
          <ol className="chat-list">
            {messages.map((message) => (
              <ChatMessageItem key={message.id} message={message} isSelf={message.authorId === selfId} />
            ))}
          </ol>
        )}
      </div>
      <ChatComposer channel={channel} isConnected={isConnected} isEnded={isEnded} />
    </aside>
  );
}

/** One message: who, when, and the text as text (never HTML), with its line breaks. */
function ChatMessageItem({ message, isSelf }: { message: ChatMessage; isSelf: boolean }) {
  const time = formatSentAt(message.sentAt);
  return (
    <li className={`chat-message${isSelf ? " is-self" : ""}`} data-testid="chat-message">
      <div className="chat-meta">
        <span className="chat-author" style={{ color: typistColor(message.authorId) }}>
          {message.authorName}
          {isSelf && <span className="chat-you"> (you)</span>}
        </span>
        <time className="chat-time" dateTime={message.sentAt} title={time.full}>
          {time.short}
        </time>
      </div>
      <p className="chat-text" data-testid="chat-text">
        {message.text}
      </p>
    </li>
  );
}

interface ChatComposerProps {
  channel: ChatChannel | null;
  isConnected: boolean;
  isEnded: boolean;
}

/** The text box and Send; a refusal shows under it, and an ended session says it is read-only. */
function ChatComposer({ channel, isConnected, isEnded }: ChatComposerProps) {
  const canSend = channel !== null && isConnected && !isEnded;
  const composer = useChatComposer(channel, canSend);
  const count = [...composer.text].length;
  const note = isEnded
    ? "The session has ended: the chat is read-only."
    : !isConnected
      ? "Offline: messages can be sent once the connection is back."
      : null;

  return (
    <form
      className="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void composer.submit();
      }}
    >
      <label htmlFor={CHAT_INPUT_ID} className="visually-hidden">
        Message
      </label>
      <textarea
        id={CHAT_INPUT_ID}
        className="chat-input"
        rows={2}
        value={composer.text}
        placeholder="Message everyone (Enter to send, Shift+Enter for a new line)"
        disabled={!canSend}
        aria-invalid={composer.error !== null}
        aria-describedby="chat-composer-status"
        onChange={(event) => composer.change(event.target.value)}
        onKeyDown={composer.handleKeyDown}
      />
      <div className="chat-composer-row">
        <span id="chat-composer-status" className="chat-composer-status">
          {composer.error !== null ? (
            <span role="alert" className="chat-error" data-testid="chat-error">
              {composer.error}
            </span>
          ) : note !== null ? (
            <span className="chat-note">{note}</span>
          ) : count >= SHOW_COUNT_FROM ? (
            <span className={count > CHAT_LIMITS.messageChars ? "chat-error" : "chat-note"}>
              {count} / {CHAT_LIMITS.messageChars}
            </span>
          ) : null}
        </span>
        <button type="submit" className="button button-primary chat-send" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
