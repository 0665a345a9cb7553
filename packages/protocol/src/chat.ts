import { z } from "zod";
import { SessionIdSchema } from "./sessions";

/** Session chat bounds: the server enforces them, the browser warns early. */
export const CHAT_LIMITS = {
  /** Characters (code points) of one message, after trimming. */
  messageChars: 2000,
  /** Messages in one history answer: the newest on join, then pages of earlier ones. */
  historyPage: 200,
  /** Messages a session keeps: past it, the oldest go, so a long flood cannot fill the disk. */
  sessionMessages: 5000,
  /** Messages one participant may send to one session per window (every node counts together). */
  messagesPerWindow: 10,
  windowSeconds: 10,
} as const;

/** What a refused message says; the browser shows it beside the text box. */
export const CHAT_MESSAGES = {
  empty: "A message cannot be empty",
  tooLong: `A message is at most ${CHAT_LIMITS.messageChars} characters`,
  control: "A message may not contain control characters (only new lines and tabs)",
  tooFast: (seconds: number) => `You are sending messages too fast: try again in ${seconds} s`,
} as const;

/** A C0 or C1 control character or DEL, other than tab and newline. */
function isRefusedControl(point: number): boolean {
  if (point === 0x09 || point === 0x0a) return false;
  return point < 0x20 || (point >= 0x7f && point <= 0x9f);
}

/** The code points of `text`, so a message of emoji is not cut at half its length. */
const charCount = (text: string) => [...text].length;

/**
 * A chat message's text: plain text, line breaks normalised to `\n`, trimmed, not empty, at
 * most `CHAT_LIMITS.messageChars` characters, no control characters but newline and tab.
 */
export const ChatTextSchema = z
  .string()
  // Bounds the work below; anything this long is refused as too long anyway.
  .max(CHAT_LIMITS.messageChars * 8, CHAT_MESSAGES.tooLong)
  .transform((text) => text.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z
      .string()
      .min(1, CHAT_MESSAGES.empty)
      .refine((text) => charCount(text) <= CHAT_LIMITS.messageChars, CHAT_MESSAGES.tooLong)
      .refine(
        (text) => ![...text].some((c) => isRefusedControl(c.codePointAt(0) ?? 0)),
        CHAT_MESSAGES.control,
      ),
  );

export const SendChatSchema = z.object({ sessionId: SessionIdSchema, text: ChatTextSchema });
export type SendChat = z.input<typeof SendChatSchema>;

/** One stored message: the server stamps its id (its order in the session), author and time. */
export const ChatMessageSchema = z.object({
  id: z.number().int().positive(),
  /** The author's participant id (a user id or `guest-…`), as in the participants list. */
  authorId: z.string(),
  /** The author's name when they sent it. */
  authorName: z.string(),
  text: z.string(),
  /** The server's time, ISO 8601. */
  sentAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A new message, to everyone in the session, its author included. */
export const ChatBroadcastSchema = z.object({ sessionId: z.string(), message: ChatMessageSchema });
export type ChatBroadcast = z.infer<typeof ChatBroadcastSchema>;

/** Asks for the newest page of the session's chat, or the page before message `before`. */
export const ChatHistoryRequestSchema = z.object({
  sessionId: SessionIdSchema,
  before: z.number().int().positive().optional(),
});

/** A page of the chat, oldest first; `hasMore` when earlier messages exist. */
export const ChatHistorySchema = z.object({
  messages: z.array(ChatMessageSchema),
  hasMore: z.boolean(),
});
export type ChatHistory = z.infer<typeof ChatHistorySchema>;
