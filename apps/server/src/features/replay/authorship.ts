import { fileText, listWorkspace } from "@ensemble/collab";
import type { ReplayFile, ReplaySpan } from "@ensemble/protocol";
import * as Y from "yjs";

/** Each Yjs client id seen in the history, and the participant whose client it was (null: the server). */
export type ClientAuthors = Record<string, string | null>;

/**
 * Records who wrote an update: a client id met for the first time belongs to the author of the
 * row that brought it. Each browser tab's document has its own client id, and the server
 * stores every update under the participant of the connection that sent it.
 */
export function noteAuthors(authors: ClientAuthors, update: Uint8Array, author: string | null): void {
  for (const client of Y.parseUpdateMeta(update).to.keys()) {
    const key = String(client);
    if (!(key in authors)) authors[key] = author;
  }
}

/** The runs of a text by author, in order: consecutive characters of one author make one span. */
export function spansOf(text: Y.Text, authors: ClientAuthors): ReplaySpan[] {
  const spans: ReplaySpan[] = [];
  for (let item = text._start; item; item = item.right) {
    if (item.deleted || !item.countable) continue;
    const author = authors[String(item.id.client)] ?? null;
    const last = spans.at(-1);
    if (last && last.author === author) last.length += item.length;
    else spans.push({ author, length: item.length });
  }
  return spans;
}

/** Every file of a document, sorted by path, with its text and who typed each part of it. */
export function filesOf(doc: Y.Doc, authors: ClientAuthors): ReplayFile[] {
  return listWorkspace(doc).files.map(({ id, path }) => {
    const text = fileText(doc, id);
    return { path, content: text.toString(), spans: spansOf(text, authors) };
  });
}
