/** Ids that tie the top bar's chat toggle to the panel (aria-controls, focus on close). */
export const CHAT_PANEL_ID = "chat-panel";
export const CHAT_TOGGLE_ID = "chat-toggle";
export const CHAT_INPUT_ID = "chat-input";

/** Within this many px of the bottom the list counts as scrolled to its newest message. */
export const AT_BOTTOM_PX = 24;

/** From this many characters on, the composer shows how many are left. */
export const SHOW_COUNT_FROM = 1800;

/** The toggle's badge: the count, capped so it stays small. */
export const unreadLabel = (unread: number) => (unread > 99 ? "99+" : String(unread));
