import type { SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireJoined } from "../../realtime/session";
import type { ChatService } from "./service";

/**
 * The chat's events: only a socket that joined the session reads or sends (every
 * role: a viewer sees everything live and may talk, DESIGN decision 17 refuses them only changes
 * to the project), and the author is always this socket's participant, whatever the payload says.
 */
export function registerChatEvents(events: SocketEvents, chat: ChatService) {
  events.on("sendChat", async (socket, { sessionId, text }) => {
    return chat.send(sessionId, actorOf(socket, sessionId), text);
  });

  events.on("getChatHistory", async (socket, { sessionId, before }) => {
    requireJoined(socket, sessionId);
    return chat.history(sessionId, before);
  });
}
