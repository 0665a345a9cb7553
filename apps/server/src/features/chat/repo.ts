import { type ChatHistory, type ChatMessage, DELETED_USER_NAME } from "@ensemble/protocol";
import type { Db, Queryable } from "../../db/index";

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

/** SQL of the session chat (migration 010); a session keeps its newest `keep` messages. */
export function createChatRepo(db: Db, keep: number) {
  return {
    /**
     * Stores one message and drops the session's oldest past `keep`, in one transaction; the
     * database gives its id (the session's order) and time.
     */
    async insert(
      sessionId: string,
      author: { id: string; name: string },
      text: string,
    ): Promise<ChatMessage> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<MessageRow>(
          `INSERT INTO chat_messages (session_id, author_id, author_name, text) VALUES ($1, $2, $3, $4)
           RETURNING id, author_id, author_name, text, created_at`,
          [sessionId, author.id, author.name, text],
        );
        if (!row) throw new Error("chat message not stored");
        await tx.query(
          `DELETE FROM chat_messages WHERE session_id = $1 AND id <= (
             SELECT id FROM chat_messages WHERE session_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1
           )`,
          [sessionId, keep],
        );
        return toMessage(row);
      });
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

    /** Every message of one author, in every session, oldest first (their data export). */
    async byAuthor(authorId: string): Promise<(ChatMessage & { sessionId: string })[]> {
      const rows = await db.query<MessageRow & { session_id: string }>(
        `SELECT id, session_id, author_id, author_name, text, created_at FROM chat_messages
         WHERE author_id = $1 ORDER BY created_at, id`,
        [authorId],
      );
      return rows.map((row) => ({ sessionId: row.session_id, ...toMessage(row) }));
    },

    /** The author's name on every message they sent becomes "Deleted user" (in `tx`). */
    async forgetAuthor(tx: Queryable, authorId: string): Promise<void> {
      await tx.query("UPDATE chat_messages SET author_name = $2 WHERE author_id = $1", [
        authorId,
        DELETED_USER_NAME,
      ]);
    },
  };
}

export type ChatRepo = ReturnType<typeof createChatRepo>;
