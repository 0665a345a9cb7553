import type { ChatHistory, ChatMessage } from "@ensemble/protocol";
import type { Db } from "../../db/index";

interface MessageRow {
  id: string | number;
  author_id: string;
  author_name: string;
  text: string;
  created_at: Date;
}

const toMessage = (row: MessageRow): ChatMessage => ({
  id: Number(row.id),
  authorId: row.author_id,
  authorName: row.author_name,
  text: row.text,
  sentAt: row.created_at.toISOString(),
});

/** SQL of the session chat (migration 010). */
export function createChatRepo(db: Db) {
  return {
    /** Stores one message; the database gives its id (the session's order) and time. */
    async insert(
      sessionId: string,
      author: { id: string; name: string },
      text: string,
    ): Promise<ChatMessage> {
      const [row] = await db.query<MessageRow>(
        `INSERT INTO chat_messages (session_id, author_id, author_name, text) VALUES ($1, $2, $3, $4)
         RETURNING id, author_id, author_name, text, created_at`,
        [sessionId, author.id, author.name, text],
      );
      if (!row) throw new Error("chat message not stored");
      return toMessage(row);
    },

    /** Up to `limit` messages before id `before` (the newest without it), oldest first. */
    async page(sessionId: string, before: number | undefined, limit: number): Promise<ChatHistory> {
      const rows = await db.query<MessageRow>(
        `SELECT id, author_id, author_name, text, created_at FROM chat_messages
         WHERE session_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
         ORDER BY id DESC LIMIT $3`,
        [sessionId, before ?? null, limit + 1],
      );
      const hasMore = rows.length > limit;
      return { messages: rows.slice(0, limit).reverse().map(toMessage), hasMore };
    },
  };
}

export type ChatRepo = ReturnType<typeof createChatRepo>;
