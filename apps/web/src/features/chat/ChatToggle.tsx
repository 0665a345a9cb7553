import { StrokeIcon } from "../../ui/StrokeIcon";
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
      className={`panel-toggle${isOpen ? " is-open" : ""}`}
      aria-label={`${isOpen ? "Hide" : "Show"} chat${unreadText}`}
      aria-expanded={isOpen}
      aria-controls={CHAT_PANEL_ID}
      data-testid="chat-toggle"
      onClick={handleClick}
    >
      <StrokeIcon>
        <path d="M4 5h16v11H9l-5 4z" />
      </StrokeIcon>
      {unread > 0 && (
        <span className="chat-unread" data-testid="chat-unread">
          {unreadLabel(unread)}
        </span>
      )}
    </button>
  );
}
