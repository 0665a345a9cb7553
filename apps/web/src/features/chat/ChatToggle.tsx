import { CHAT_INPUT_ID, CHAT_PANEL_ID, CHAT_TOGGLE_ID, unreadLabel } from "./panel";
import { setChatOpen, useChatStore } from "./store";

/** The top bar's chat button: shows or hides the chat panel, with the count of unread messages. */
export function ChatToggle() {
  const isOpen = useChatStore((s) => s.isOpen);
  const unread = useChatStore((s) => s.unread);
  const unreadText = unread > 0 ? `, ${unread} unread` : "";

  const handleClick = () => {
    setChatOpen(!isOpen);
    // The panel shows on the next render; then the text box takes the focus.
    if (!isOpen) requestAnimationFrame(() => document.getElementById(CHAT_INPUT_ID)?.focus());
  };

  return (
    <button
      type="button"
      id={CHAT_TOGGLE_ID}
      className={`chat-toggle${isOpen ? " is-open" : ""}`}
      aria-label={`${isOpen ? "Hide" : "Show"} chat${unreadText}`}
      aria-expanded={isOpen}
      aria-controls={CHAT_PANEL_ID}
      data-testid="chat-toggle"
      onClick={handleClick}
    >
      <svg
        width="18"
        height="18"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M4 5h16v11H9l-5 4z" />
      </svg>
      {unread > 0 && (
        <span className="chat-unread" data-testid="chat-unread">
          {unreadLabel(unread)}
        </span>
      )}
    </button>
  );
}
