import { lazyNamed } from "../../ui/lazyNamed";

// The side panels no one sees at first paint, each its own chunk: the editor route evaluates
// less before the document shows. Their state lives in their stores, fed by the session's
// channels, so nothing that arrives before a panel has loaded is lost.

/** The chat panel, loaded when first rendered. */
export const ChatPanel = lazyNamed(() => import("../chat/ChatPanel"), "ChatPanel");
/** The call panel, loaded when first rendered. */
export const CallPanel = lazyNamed(() => import("../calls/CallPanel"), "CallPanel");
/** The replay panel, loaded when first rendered. */
export const ReplayPanel = lazyNamed(() => import("../replay/ReplayPanel"), "ReplayPanel");
/** The pull request review dialog, loaded when first rendered. */
export const ReviewPanel = lazyNamed(() => import("../pulls/ReviewPanel"), "ReviewPanel");
