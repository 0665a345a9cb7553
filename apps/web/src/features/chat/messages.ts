import type { ChatMessage } from "@ensemble/protocol";

/**
 * `existing` with `incoming` added, in the server's order (by id), each message once: a
 * broadcast, our own ack and a history page may bring the same message.
 */
export function mergeMessages(
  existing: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
): ChatMessage[] {
  if (incoming.length === 0) return existing as ChatMessage[];
  const byId = new Map(existing.map((m) => [m.id, m]));
  let isNew = false;
  for (const message of incoming) {
    if (byId.has(message.id)) continue;
    byId.set(message.id, message);
    isNew = true;
  }
  if (!isNew) return existing as ChatMessage[];
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** How many of `incoming` are new to `existing` and written by someone else than `selfId`. */
export function countUnread(
  existing: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
  selfId: string | null,
): number {
  const known = new Set(existing.map((m) => m.id));
  return incoming.filter((m) => !known.has(m.id) && m.authorId !== selfId).length;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** A message's time as shown beside it (hours and minutes) and in full (its tooltip). */
export function formatSentAt(sentAt: string): { short: string; full: string } {
  const date = new Date(sentAt);
  if (Number.isNaN(date.getTime())) return { short: "", full: "" };
  return { short: timeFormat.format(date), full: dateTimeFormat.format(date) };
}
