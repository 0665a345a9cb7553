import {
  ChatBroadcastSchema,
  ChatHistorySchema,
  ChatMessageSchema,
  ChatTextSchema,
} from "@ensemble/protocol";
import { ackError, type EditorSocket } from "../../lib/socket";
import { useCollabStore } from "../collab/store";
import {
  receiveEarlierPage,
  receiveMessages,
  receiveNewestPage,
  resetChat,
  setLoadingEarlier,
  useChatStore,
} from "./store";

const ACK_TIMEOUT_MS = 10_000;

const selfId = () => useCollabStore.getState().self?.id ?? null;

/**
 * The session's chat over the editor's one socket: every message reaches everyone, us
 * included, as `chatMessage`; our ack carries ours too (whichever comes first shows it). The
 * newest page of the history is asked for on every join.
 */
export class ChatChannel {
  constructor(
    private readonly socket: EditorSocket,
    private readonly sessionId: string,
  ) {
    resetChat(sessionId);
    socket.on("chatMessage", (payload) => {
      const parsed = ChatBroadcastSchema.safeParse(payload);
      if (parsed.success && parsed.data.sessionId === this.sessionId)
        receiveMessages([parsed.data.message], selfId());
    });
  }

  /** Called on each successful join. */
  joined(): void {
    this.socket
      .timeout(ACK_TIMEOUT_MS)
      .emit("getChatHistory", { sessionId: this.sessionId }, (err, result) => {
        if (err || !result?.ok) return;
        const parsed = ChatHistorySchema.safeParse(result.data);
        if (parsed.success) receiveNewestPage(parsed.data.messages, parsed.data.hasMore);
      });
  }

  /** Asks for the page before the first message we hold. */
  loadEarlier(): void {
    const { messages, isLoadingEarlier } = useChatStore.getState();
    const before = messages[0]?.id;
    if (isLoadingEarlier || before === undefined) return;
    setLoadingEarlier(true);
    this.socket
      .timeout(ACK_TIMEOUT_MS)
      .emit("getChatHistory", { sessionId: this.sessionId, before }, (err, result) => {
        const parsed = !err && result?.ok ? ChatHistorySchema.safeParse(result.data) : null;
        if (parsed?.success) receiveEarlierPage(parsed.data.messages, parsed.data.hasMore);
        else setLoadingEarlier(false);
      });
  }

  /**
   * Sends `text`; resolves with null once the server stored it, or with why it was refused
   * (checked here first with the server's own rules, so most refusals need no round trip).
   */
  send(text: string): Promise<string | null> {
    const checked = ChatTextSchema.safeParse(text);
    if (!checked.success) return Promise.resolve(checked.error.issues[0]?.message ?? "Invalid message");
    return new Promise((resolve) => {
      this.socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("sendChat", { sessionId: this.sessionId, text: checked.data }, (err, result) => {
          const error = ackError(err, result);
          if (error) return resolve(error);
          const message = result.ok ? ChatMessageSchema.safeParse(result.data) : null;
          if (message?.success) receiveMessages([message.data], selfId());
          resolve(null);
        });
    });
  }
}
