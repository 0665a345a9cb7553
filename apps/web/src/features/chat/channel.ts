import { type Ack, type ChatMessage, ChatTextSchema, DELETED_USER_NAME } from "@ensemble/protocol";
import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import type { SessionLink } from "../../lib/sessionLink";
import { useCollabStore } from "../collab/store";
import {
  receiveEarlierPage,
  receiveMessages,
  receiveNewestPage,
  renameAuthor,
  resetChat,
  setLoadingEarlier,
  useChatStore,
} from "./store";

const selfId = () => useCollabStore.getState().self?.id ?? null;

/**
 * The session's chat over the editor's one socket: every message reaches everyone, us
 * included, as `chatMessage`; our ack carries ours too (whichever comes first shows it). The
 * newest page of the history is asked for on every join.
 */
export class ChatChannel {
  private readonly link: SessionLink;

  constructor({ link, lifecycle }: ChannelScope) {
    this.link = link;
    resetChat(link.sessionId);
    link.listen("chatMessage", ({ message }) => receiveMessages([message], selfId()));
    // The server renamed their stored messages too: a reload shows the same.
    link.listen("accountDeleted", ({ userId }) => renameAuthor(userId, DELETED_USER_NAME));
    lifecycle.on("joined", () => {
      void link.request("getChatHistory", { sessionId: link.sessionId }).then((result) => {
        if (result.ok) receiveNewestPage(result.data.messages, result.data.hasMore);
      });
    });
  }

  /** Asks for the page before the first message we hold. */
  loadEarlier(): void {
    const { messages, isLoadingEarlier } = useChatStore.getState();
    const before = messages[0]?.id;
    if (isLoadingEarlier || before === undefined) return;
    setLoadingEarlier(true);
    void this.link.request("getChatHistory", { sessionId: this.link.sessionId, before }).then((result) => {
      if (result.ok) receiveEarlierPage(result.data.messages, result.data.hasMore);
      else setLoadingEarlier(false);
    });
  }

  /**
   * Sends `text`; resolves with the stored message, or with why it was refused (checked here
   * first with the server's own rules, so most refusals need no round trip).
   */
  async send(text: string): Promise<Ack<ChatMessage>> {
    const checked = ChatTextSchema.safeParse(text);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? "Invalid message";
      return { ok: false, error: { code: "invalid_request", message } };
    }
    const result = await this.link.request("sendChat", {
      sessionId: this.link.sessionId,
      text: checked.data,
    });
    if (result.ok) receiveMessages([result.data], selfId());
    return result;
  }
}

/** The session chat. */
export const chatChannel = defineChannel("chat", (scope) => new ChatChannel(scope));
