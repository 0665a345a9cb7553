import { fileText, listWorkspace } from "@ensemble/collab";
import type { ReplayFile, ReplayRun } from "@ensemble/protocol";
import * as Y from "yjs";

/** Each Yjs client id seen in the history, and the participant whose client it was (null: the server). */
export type ClientAuthors = Record<string, string | null>;

/**
 * Records who wrote an update: a client id met for the first time belongs to the author of the
 * row that brought it. Each browser tab's document has its own client id, and the server
 * stores every update under the participant of the connection that sent it.
 */
export function noteAuthors(authors: ClientAuthors, update: Uint8Array, author: string | null): void {
  noteClients(authors, Y.parseUpdateMeta(update).to.keys(), author);
}

/** The same for client ids already read from an update (the history packer's worker reads them). */
export function noteClients(authors: ClientAuthors, clients: Iterable<number>, author: string | null): void {
  for (const client of clients) {
    const key = String(client);
    if (!(key in authors)) authors[key] = author;
  }
}

/** The authors a frame's runs name, by index, each once. */
class AuthorIndex {
  readonly list: (string | null)[] = [];
  private readonly indexes = new Map<string | null, number>();

  of(author: string | null): number {
    let index = this.indexes.get(author);
    if (index === undefined) {
      index = this.list.push(author) - 1;
      this.indexes.set(author, index);
    }
    return index;
  }
}

/** The runs of a text by author, in order: consecutive characters of one author make one run. */
function runsOf(text: Y.Text, authors: ClientAuthors, index: AuthorIndex): ReplayRun[] {
  const runs: ReplayRun[] = [];
  for (let item = text._start; item; item = item.right) {
    if (item.deleted || !item.countable) continue;
    const author = index.of(authors[String(item.id.client)] ?? null);
    const last = runs.at(-1);
    if (last && last[0] === author) last[1] += item.length;
    else runs.push([author, item.length]);
  }
  return runs;
}

/** Every file of a document, sorted by path, with its text and who typed each part of it; and every folder. */
export function filesOf(
  doc: Y.Doc,
  authors: ClientAuthors,
): { files: ReplayFile[]; folders: string[]; authors: (string | null)[] } {
  const index = new AuthorIndex();
  const listing = listWorkspace(doc);
  const files = listing.files.map(({ id, path }) => {
    const text = fileText(doc, id);
    return { path, content: text.toString(), runs: runsOf(text, authors, index) };
  });
  return { files, folders: listing.folders, authors: index.list };
}
