import { CHAT_LIMITS } from "@ensemble/protocol";
import type { Db } from "../../db/index";
import type { Limiters } from "../../limiter";
import type { SocketEvents } from "../../realtime/handle";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import { createChatRepo } from "./repo";
import { createChatService } from "./service";
import { registerChatEvents } from "./socket";

export type { ChatService } from "./service";

export interface ChatFeatureDeps {
  io: EditorServer;
  db: Db;
  sessions: SessionService;
  limiters: Limiters;
  events: SocketEvents;
}

/** Wires the session chat: `sendChat` and `getChatHistory`, `chatMessage` to the session's room. */
export function createChatFeature({ io, events, db, sessions, limiters }: ChatFeatureDeps) {
  // Per author and session, through limiter.ts: with REDIS_URL every node counts together.
  const limiter = limiters.create({
    name: "chat-messages",
    points: CHAT_LIMITS.messagesPerWindow,
    durationSeconds: CHAT_LIMITS.windowSeconds,
  });
  const service = createChatService({
    repo: createChatRepo(db, CHAT_LIMITS.sessionMessages),
    sessions,
    limiter,
    broadcast: (sessionId, message) =>
      io.to(sessionRoom(sessionId)).emit("chatMessage", { sessionId, message }),
  });
  registerChatEvents(events, service);
  return { service };
}
