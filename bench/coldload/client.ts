import {
  CollabClient,
  decodeSyncMessage,
  encodeStep1,
  fileIdAt,
  fromWire,
  LANE_AWARENESS,
  LANE_SYNC,
  LaneClient,
  type LaneKind,
  laneUrl,
  SYNC_STEP1,
  toWire,
} from "@ensemble/collab";
import { type Ack, type Joined, LANGUAGE_MAIN_FILES, PROTOCOL_VERSION } from "@ensemble/protocol";
import { io, type Socket } from "socket.io-client";
import msgpackParser from "socket.io-msgpack-parser";
import WebSocket from "ws";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";

/** The file the history is typed into: the starter workspace's main file. */
export const MAIN_FILE = LANGUAGE_MAIN_FILES.javascript;

/** How Yjs travels: over the join's lane, as the browser does, or `socketio` (BENCH_TRANSPORT). */
export const TRANSPORT = process.env.BENCH_TRANSPORT === "socketio" ? "socketio" : "lane";

async function postJson(url: string, body: object, token?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Signs up a new user (named `label-<time>`) on the server and creates a session; answers its id. */
export async function createSession(baseUrl: string, label: string): Promise<string> {
  const name = `${label}-${Date.now()}`;
  const { token } = await postJson(`${baseUrl}/api/auth/register`, {
    name,
    email: `${name}@bench.invalid`,
    password: "benchmark password",
  });
  if (typeof token !== "string") throw new Error("register answered without a token");
  const { session_id: id } = await postJson(`${baseUrl}/api/session/create`, { title: name }, token);
  if (typeof id !== "string") throw new Error("session/create answered without a session_id");
  return id;
}

/**
 * An editor on our server as the browser connects (socket.io + msgpack, websocket only,
 * `joinSession`, then `CollabClient` over the join's Yjs lane), with what the cold-load bench
 * needs to time: when its main file holds a text, and when the server has applied an edit of
 * its own.
 */
export class BenchClient {
  readonly doc = new Y.Doc();
  private readonly socket: Socket;
  private readonly client: CollabClient;
  private lane: LaneClient | undefined;
  /** Our client's clock in the server's latest step 1 (what the server holds of our edits). */
  private serverClock = 0;
  /**
   * When each step of the first sync happened (`performance.now()`): where wall time goes.
   * `answer`: the first message of the server's answer to our step 1 arrived, not yet read.
   */
  readonly marks: { connected?: number; joined?: number; laneOpen?: number; answer?: number } = {};
  private readonly listeners = new Set<() => void>();

  constructor(baseUrl: string, sessionId: string) {
    const awareness = new Awareness(this.doc);
    awareness.setLocalStateField("user", { name: `cold-${this.doc.clientID}`, color: "#30bced" });
    this.socket = io(baseUrl, {
      transports: ["websocket"],
      parser: msgpackParser,
      auth: { protocolVersion: PROTOCOL_VERSION },
      forceNew: true,
    });
    this.client = new CollabClient(this.doc, awareness, {
      sendSync: (m) => this.send(LANE_SYNC, m),
      sendAwareness: (m) => this.send(LANE_AWARENESS, m),
    });
    const refused = (e: { event: string; code: string; message: string }) =>
      console.error(`refused ${e.event}: ${e.code} ${e.message}`);
    this.socket.on("connect", () => {
      this.marks.connected ??= performance.now();
      this.socket.emit("joinSession", sessionId, (ack: Ack<Joined>) => {
        this.marks.joined ??= performance.now();
        if (!ack.ok) console.error(`joinSession ${sessionId} refused: ${ack.error.message}`);
        else if (TRANSPORT === "socketio") this.client.connected();
        else this.openLane(baseUrl, ack.data.laneTicket, refused);
      });
    });
    this.socket.on("connect_error", (error) => console.error(`connect: ${error.message}`));
    this.socket.on("socketError", refused);
    this.socket.on("yjsSync", (wire: Uint8Array | ArrayBuffer) => this.receiveSync(fromWire(wire)));
    this.socket.on("yjsAwareness", (wire: Uint8Array | ArrayBuffer) =>
      this.client.receiveAwareness(fromWire(wire)),
    );
  }

  private openLane(
    baseUrl: string,
    ticket: string,
    refused: (e: { event: string; code: string; message: string }) => void,
  ) {
    const opening = new LaneClient(new WebSocket(laneUrl(baseUrl, ticket)), {
      open: () => {
        this.marks.laneOpen ??= performance.now();
        this.lane = opening;
        this.client.connected();
      },
      message: (kind, m) => (kind === LANE_SYNC ? this.receiveSync(m) : this.client.receiveAwareness(m)),
      refused,
      closed: (code, wasOpen) => {
        if (this.lane === opening) this.lane = undefined;
        if (!wasOpen) console.error(`the lane did not open (${code})`);
      },
    });
  }

  private send(kind: LaneKind, message: Uint8Array) {
    if (this.lane) this.lane.send(kind, message);
    else this.socket.emit(kind === LANE_SYNC ? "yjsSync" : "yjsAwareness", toWire(message));
  }

  private receiveSync(message: Uint8Array) {
    // The first byte is the message type (a one-byte varint): no decoding before the mark.
    if (message[0] !== SYNC_STEP1) this.marks.answer ??= performance.now();
    else {
      const parsed = decodeSyncMessage(message);
      if (parsed.type === SYNC_STEP1) {
        this.serverClock = Y.decodeStateVector(parsed.stateVector).get(this.doc.clientID) ?? 0;
      }
    }
    this.client.receiveSync(message);
    for (const listener of this.listeners) listener();
  }

  /** The name of the main file's root text (its file id), once the workspace has arrived. */
  mainTextName(): string | undefined {
    return fileIdAt(this.doc, MAIN_FILE);
  }

  mainText(): Y.Text | undefined {
    const id = this.mainTextName();
    return id === undefined ? undefined : this.doc.getText(id);
  }

  /** Resolves when the main file's text satisfies `test` (checked after every sync message). */
  until(test: (text: Y.Text | undefined) => boolean, timeoutMs = 120_000): Promise<void> {
    return this.when(() => test(this.mainText()), timeoutMs);
  }

  /**
   * Types one character into the main file and resolves once the server has applied it: a
   * step 1 sent after the edit is answered, in order, with the server's state vector, which
   * then counts the edit.
   */
  async editAccepted(timeoutMs = 120_000): Promise<void> {
    const text = this.mainText();
    if (!text) throw new Error("no main file to edit");
    text.insert(0, "/");
    const clock = Y.getState(this.doc.store, this.doc.clientID);
    this.send(LANE_SYNC, encodeStep1(this.doc));
    await this.when(() => this.serverClock >= clock, timeoutMs);
  }

  /** Sends an acknowledged event on this client's socket and resolves with its ack. */
  request(event: string, payload: unknown, timeoutMs = 60_000): Promise<Ack<unknown>> {
    return new Promise((resolve) =>
      this.socket
        .timeout(timeoutMs)
        .emit(event, payload, (err: Error | null, ack: Ack<unknown>) =>
          resolve(err ? { ok: false, error: { code: "timeout", message: err.message } } : ack),
        ),
    );
  }

  /** Closes the lane first (the server has then handled what it carried), then the socket. */
  async close(): Promise<void> {
    this.client.destroy();
    await this.lane?.close();
    this.socket.disconnect();
  }

  private when(test: () => boolean, timeoutMs: number): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }
}
