import { decodeSyncMessage, encodeStep1, encodeStep2, encodeUpdate, SYNC_STEP1 } from "@ensemble/collab";
import { LANGUAGES, type Language, STARTER_CODE } from "@ensemble/protocol";
import * as awarenessProtocol from "y-protocols/awareness";
import * as Y from "yjs";
import { decodeAwareness, encodeAwareness } from "./awarenessFilter";

/** One connection to a room, whatever carries it (a socket.io socket, a test pipe). */
export interface RoomConnection {
  readonly id: string;
  /** Who the connection belongs to; stamped on its awareness so names cannot be forged. */
  readonly user: { id: string; name: string };
  sendSync(message: Uint8Array): void;
  sendAwareness(message: Uint8Array): void;
}

/** Fan-out to every connection but one, encoded once (socket.io: a room broadcast). */
export interface RoomBroadcast {
  sync(message: Uint8Array, except: RoomConnection | undefined): void;
  awareness(message: Uint8Array, except: RoomConnection | undefined): void;
}

/** Thrown for a message refused as a whole; the document is unchanged. */
export class RoomMessageError extends Error {}

/**
 * One session's live document and presence, independent of the transport. Every update is
 * checked before it is applied, every applied update is broadcast once and handed to
 * `onUpdate` for storage; awareness entries may only be set by the connection that owns
 * them and always carry that connection's real user.
 */
export class Room {
  readonly doc: Y.Doc;
  readonly awareness: awarenessProtocol.Awareness;
  private readonly connections = new Map<RoomConnection, Set<number>>();

  constructor(
    readonly sessionId: string,
    private readonly broadcast: RoomBroadcast,
    private readonly onUpdate: (update: Uint8Array) => void,
    stored: Uint8Array[] = [],
  ) {
    this.doc = new Y.Doc({ gc: true });
    for (const update of stored) Y.applyUpdate(this.doc, update);
    if (stored.length === 0) seedStarters(this.doc);
    this.awareness = new awarenessProtocol.Awareness(this.doc);
    this.awareness.setLocalState(null);
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      // Our own applies pass the sending connection as origin; it gets no echo.
      const from = this.connections.has(origin as RoomConnection) ? (origin as RoomConnection) : undefined;
      this.broadcast.sync(encodeUpdate(update), from);
      this.onUpdate(update);
    });
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Adds a connection and tells it who is here. Sync starts with the client's step 1, which
   * we answer with step 2 and our own step 1: the client's answer to that is computed after
   * it counts itself connected, so no edit falls between its step 2 and its live updates.
   */
  join(connection: RoomConnection): void {
    this.connections.set(connection, new Set());
    const states = [...this.awareness.getStates().keys()];
    if (states.length > 0)
      connection.sendAwareness(awarenessProtocol.encodeAwarenessUpdate(this.awareness, states));
  }

  /** Removes a connection and the cursors it controlled. */
  leave(connection: RoomConnection): void {
    const controlled = this.connections.get(connection);
    this.connections.delete(connection);
    if (controlled && controlled.size > 0) {
      // Peers drop a state on a null entry with a newer clock than the one they hold.
      const removal = [...controlled].map((clientId) => ({
        clientId,
        clock: (this.awareness.meta.get(clientId)?.clock ?? 0) + 1,
        state: null,
      }));
      awarenessProtocol.removeAwarenessStates(this.awareness, [...controlled], connection);
      this.broadcast.awareness(encodeAwareness(removal), connection);
    }
  }

  /** Handles a sync message; throws RoomMessageError and changes nothing when it is malformed. */
  receiveSync(connection: RoomConnection, message: Uint8Array): void {
    this.assertMember(connection);
    let parsed: ReturnType<typeof decodeSyncMessage>;
    try {
      parsed = decodeSyncMessage(message);
    } catch (error) {
      throw new RoomMessageError(`malformed sync message: ${String(error)}`);
    }
    if (parsed.type === SYNC_STEP1) {
      connection.sendSync(encodeStep2(this.doc, parsed.stateVector));
      connection.sendSync(encodeStep1(this.doc));
      return;
    }
    Y.applyUpdate(this.doc, parsed.update, connection);
  }

  /** Handles an awareness update; entries for another connection's client ids are dropped. */
  receiveAwareness(connection: RoomConnection, message: Uint8Array): void {
    const controlled = this.assertMember(connection);
    let entries: ReturnType<typeof decodeAwareness>;
    try {
      entries = decodeAwareness(message);
    } catch (error) {
      throw new RoomMessageError(`malformed awareness update: ${String(error)}`);
    }
    const owned = entries.filter(
      (e) => controlled.has(e.clientId) || !this.ownedByOther(connection, e.clientId),
    );
    if (owned.length === 0) return;
    const stamped = owned.map((e) => ({
      ...e,
      state:
        e.state === null ? null : { ...e.state, user: { ...asObject(e.state.user), ...connection.user } },
    }));
    for (const e of stamped) {
      if (e.state === null) controlled.delete(e.clientId);
      else controlled.add(e.clientId);
    }
    const bytes = encodeAwareness(stamped);
    awarenessProtocol.applyAwarenessUpdate(this.awareness, bytes, connection);
    this.broadcast.awareness(bytes, connection);
  }

  /** Text of a file, for tests and the runner. */
  text(file: string): string {
    return this.doc.getText(file).toString();
  }

  destroy(): void {
    this.awareness.destroy();
    this.doc.destroy();
  }

  private assertMember(connection: RoomConnection): Set<number> {
    const controlled = this.connections.get(connection);
    if (!controlled) throw new RoomMessageError("not in this session");
    return controlled;
  }

  private ownedByOther(connection: RoomConnection, clientId: number): boolean {
    for (const [other, ids] of this.connections) if (other !== connection && ids.has(clientId)) return true;
    return false;
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {};
}

/** A new session's files start with the hello-world starters, written once by the server. */
function seedStarters(doc: Y.Doc) {
  doc.transact(() => {
    for (const language of Object.keys(LANGUAGES) as Language[]) {
      doc.getText(LANGUAGES[language].file).insert(0, STARTER_CODE[language]);
    }
  });
}
