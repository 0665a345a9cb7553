import { CHAT_LIMITS, CHAT_MESSAGES, type ChatHistory, type ChatMessage } from "@ensemble/protocol";
import type { Queryable } from "../../db/index";
import { DomainError } from "../../errors";
import type { Limiter } from "../../limiter";
import type { Actor } from "../../realtime/presence";
import type { SessionService } from "../sessions/index";
import type { ChatRepo } from "./repo";

/** Who sends (the request's actor): stamped on the message; `rateKey` is whose budget it counts against. */
export type ChatAuthor = Pick<Actor, "id" | "name" | "rateKey">;

export interface ChatServiceDeps {
  repo: ChatRepo;
  sessions: Pick<SessionService, "assertOpen">;
  /** Counts messages per author (a user, or a guest's address) and session. */
  limiter: Limiter;
  /** Sends a stored message to everyone in the session. */
  broadcast: (sessionId: string, message: ChatMessage) => void;
}

/** Session chat: messages stored first, then sent to the session; pages of history. */
export function createChatService({ repo, sessions, limiter, broadcast }: ChatServiceDeps) {
  return {
    /**
     * Stores `text` (already checked by the protocol's schema) as `author`'s and sends it to
     * everyone. An ended session (an archive, DESIGN decision 15) refuses with `session_ended`.
     */
    async send(sessionId: string, author: ChatAuthor, text: string): Promise<ChatMessage> {
      await sessions.assertOpen(sessionId);
      const wait = await limiter.take(`${sessionId}:${author.rateKey}`);
      // The author sent more than the window allows; nothing was stored.
      if (wait > 0)
        throw new DomainError("rate_limited", CHAT_MESSAGES.tooFast(wait), { retryAfterSeconds: wait });
      const message = await repo.insert(sessionId, { id: author.id, name: author.name }, text);
      broadcast(sessionId, message);
      return message;
    },

    /** Every message the account sent, in any session (their data export). */
    byAuthor: (authorId: string) => repo.byAuthor(authorId),

    /** A deleted account's messages show "Deleted user" as their author (in `tx`). */
    forgetAuthor: (tx: Queryable, authorId: string) => repo.forgetAuthor(tx, authorId),

    /** The newest page of the chat, or the page before message `before`; ended sessions too. */
    history(sessionId: string, before?: number): Promise<ChatHistory> {
      return repo.page(sessionId, before, CHAT_LIMITS.historyPage);
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
