import type { SocketEvents } from "../../realtime/handle";
import { requireJoined } from "../../realtime/session";
import type { ChatService } from "./service";

/**
 * The chat's events: only a socket that joined the session reads or sends (every
 * role: a viewer sees everything live and may talk, DESIGN decision 17 refuses them only changes
 * to the project), and the author is always this socket's participant, whatever the payload says.
 */
export function registerChatEvents(events: SocketEvents, chat: ChatService) {
  events.on("sendChat", async (socket, { sessionId, text }) => {
    const session = requireJoined(socket, sessionId);
    const { identity } = socket.data;
    const author = {
      id: session.participantId,
      name: identity.name,
      // A guest can come back as a new guest at will: guests count by address, as Run Code does.
      rateKey: identity.kind === "user" ? `user:${identity.id}` : `guest:${socket.handshake.address}`,
    };
    return chat.send(sessionId, author, text);
  });

  events.on("getChatHistory", async (socket, { sessionId, before }) => {
    requireJoined(socket, sessionId);
    return chat.history(sessionId, before);
  });
}
