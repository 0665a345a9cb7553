import type { DecodedUpdate } from "@ensemble/collab";
import * as Y from "yjs";
import { DomainError } from "../../errors";

/** What the guard needs to know about the workspace it protects. */
export interface GuardedWorkspace {
  /** Whether a root name is the text of a file (a current one, or one deleted since). */
  isFileText(name: string): boolean;
  /** Whether the file text may grow by `bytes` (UTF-8), alone and within the workspace. */
  sizeProblem(growth: ReadonlyMap<string, number>): string | undefined;
}

type Struct = Y.Item | Y.GC | Y.Skip;

/**
 * Checks a client's Yjs update before it is applied: a client may only insert plain text
 * into file texts and delete text of file texts. Anything else (an entry of the `files` or
 * `folders` map, a new root type, a nested type, formatting or embeds, a carriage return, a delete of content
 * the server does not have, which Yjs would keep pending and apply to a later server item)
 * refuses the update whole. It also refuses an update that would push a file or the
 * workspace past its size limit. Content the server already has is skipped, as Yjs does.
 * Answers whether the update changes the document at all (a sync step 2 often does not).
 * It takes the update as read by `decodeSyncMessage`, which already refused malformed bytes.
 */
export function checkClientUpdate(doc: Y.Doc, workspace: GuardedWorkspace, update: DecodedUpdate): boolean {
  // Yjs types the delete set as opaque; its shape is stable across Yjs 13.
  const decoded = update as unknown as {
    structs: Struct[];
    ds: { clients: Map<number, { clock: number; len: number }[]> };
  };
  const roots = rootNamesOf(doc);
  const ownStructs = new Map<number, Struct[]>();
  for (const struct of decoded.structs) {
    const list = ownStructs.get(struct.id.client);
    if (list) list.push(struct);
    else ownStructs.set(struct.id.client, [struct]);
  }
  for (const [client, structs] of ownStructs) {
    // A gap before the update's first struct would leave it pending, to be applied later.
    if ((structs[0]?.id.clock ?? 0) > Y.getState(doc.store, client)) {
      throw new DomainError("update_refused", "refers to content the server does not have", {
        missingContent: true,
      });
    }
  }
  const resolved = new Map<Y.Item, string | null>();
  const growth = new Map<string, number>();
  const grow = (name: string, bytes: number) => growth.set(name, (growth.get(name) ?? 0) + bytes);
  let changes = false;

  // The root a new item lands in: its own parent, or its neighbour's (Yjs writes the parent
  // only when the item has neither origin). `null` means the item will be dropped by Yjs
  // (its neighbour was garbage-collected), which is harmless.
  const rootOf = (item: Y.Item): string | null => {
    const chain: Y.Item[] = [];
    let current: Y.Item = item;
    let root: string | null | undefined;
    while (root === undefined) {
      const known = resolved.get(current);
      if (known !== undefined) {
        root = known;
        break;
      }
      chain.push(current);
      const parent = current.parent as unknown;
      if (typeof parent === "string") {
        root = parent;
      } else if (parent !== null) {
        throw new DomainError("update_refused", "nested types are not allowed");
      } else {
        const neighbour = current.origin ?? current.rightOrigin;
        if (!neighbour) throw new DomainError("update_refused", "an item without a parent");
        const own = findStruct(ownStructs.get(neighbour.client), neighbour.clock);
        if (own instanceof Y.Item) {
          current = own;
          continue;
        }
        if (own instanceof Y.Skip)
          throw new DomainError("update_refused", "refers to content the update skips", {
            missingContent: true,
          });
        if (own) {
          root = null;
          break;
        }
        const stored = findStored(doc, neighbour);
        if (!stored)
          throw new DomainError("update_refused", "refers to content the server does not have", {
            missingContent: true,
          });
        root = stored instanceof Y.Item ? roots.of(stored.parent) : null;
      }
    }
    for (const link of chain) resolved.set(link, root);
    return root;
  };

  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    if (struct.id.clock + struct.length <= Y.getState(doc.store, struct.id.client)) continue;
    // New content, even garbage-collected: it advances the client's clock on the server.
    changes = true;
    if (!(struct instanceof Y.Item)) continue;
    const root = rootOf(struct);
    if (root === null) continue;
    if (!workspace.isFileText(root))
      throw new DomainError("update_refused", `only the server changes "${root}"`);
    if (struct.parentSub !== null) throw new DomainError("update_refused", "a file text has no keys");
    const { content } = struct;
    if (content instanceof Y.ContentString) {
      // Editors keep LF everywhere; a \r would shift every offset after it in Monaco.
      if (content.str.includes("\r")) throw new DomainError("update_refused", "line endings must be \\n");
      grow(root, Buffer.byteLength(content.str));
    } else if (!(content instanceof Y.ContentDeleted))
      throw new DomainError("update_refused", "a file text holds plain text only");
  }

  for (const [client, ranges] of decoded.ds.clients) {
    const known = Y.getState(doc.store, client);
    const ownEnd = lastClock(ownStructs.get(client));
    for (const { clock, len } of ranges) {
      if (clock + len > Math.max(known, ownEnd)) {
        throw new DomainError("update_refused", "deletes content the server does not have", {
          missingContent: true,
        });
      }
      const stored = doc.store.clients.get(client);
      if (!stored || clock >= known) continue;
      for (let i = Y.findIndexSS(stored, clock); i < stored.length; i++) {
        const struct = stored[i] as Struct;
        if (struct.id.clock >= clock + len) break;
        if (!(struct instanceof Y.Item) || struct.deleted) continue;
        changes = true;
        const root = roots.of(struct.parent);
        if (root === null || !workspace.isFileText(root)) {
          throw new DomainError("update_refused", "only the server removes files and folders");
        }
        const inside = struct.id.clock >= clock && struct.id.clock + struct.length <= clock + len;
        if (inside && struct.content instanceof Y.ContentString) {
          grow(root, -Buffer.byteLength(struct.content.str));
        }
      }
    }
  }

  const problem = workspace.sizeProblem(growth);
  if (problem) throw new DomainError("update_refused", problem);
  return changes;
}

const rootNames = new WeakMap<Y.Doc, RootNames>();

/** The document's root-name cache, kept across updates (a root's name never changes). */
function rootNamesOf(doc: Y.Doc): RootNames {
  let names = rootNames.get(doc);
  if (!names) {
    names = new RootNames(doc);
    rootNames.set(doc, names);
  }
  return names;
}

/** Root type → its name in the document, rebuilt only when a new root appears. */
class RootNames {
  private names = new Map<unknown, string>();

  constructor(private readonly doc: Y.Doc) {}

  of(type: unknown): string | null {
    if (!(type instanceof Y.AbstractType) || type._item !== null) return null;
    let name = this.names.get(type);
    if (name === undefined) {
      this.names = new Map([...this.doc.share].map(([key, value]) => [value, key]));
      name = this.names.get(type);
    }
    return name ?? null;
  }
}

/** The struct holding `clock` in a list sorted by clock (an update's structs of one client). */
function findStruct(structs: Struct[] | undefined, clock: number): Struct | undefined {
  if (!structs) return undefined;
  let low = 0;
  let high = structs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const struct = structs[middle] as Struct;
    if (clock < struct.id.clock) high = middle - 1;
    else if (clock >= struct.id.clock + struct.length) low = middle + 1;
    else return struct;
  }
  return undefined;
}

function lastClock(structs: Struct[] | undefined): number {
  const last = structs?.at(-1);
  return last ? last.id.clock + last.length : 0;
}

function findStored(doc: Y.Doc, id: Y.ID): Struct | undefined {
  const structs = doc.store.clients.get(id.client);
  if (!structs || id.clock >= Y.getState(doc.store, id.client)) return undefined;
  return structs[Y.findIndexSS(structs, id.clock)] as Struct;
}
