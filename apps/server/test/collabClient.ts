import {
  CollabClient,
  fileIdAt,
  fromWire,
  LANE_AWARENESS,
  LANE_SYNC,
  LaneClient,
  type LaneRefusal,
  laneUrl,
  toWire,
} from "@ensemble/collab";
import {
  type Ack,
  CLIENT_EVENTS,
  type ClientAckData,
  type ClientEventName,
  type ClientPayloadInput,
  type GithubTarget,
  type Joined,
  LANGUAGE_MAIN_FILES,
  PROTOCOL_VERSION,
  SERVER_EVENTS,
  SESSION_ROUTE_PARAM,
  type TerminalEntry,
} from "@ensemble/protocol";
import type { Socket } from "socket.io-client";
import WebSocket from "ws";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import type { z } from "zod";
import { buildSession, socketClient, type TestServer } from "./harness";

/** The client events the server acknowledges, from the catalogue. */
export type AckedEvent = {
  [E in ClientEventName]: (typeof CLIENT_EVENTS)[E] extends { ack: z.ZodType } ? E : never;
}[ClientEventName];

/** The client events the server does not acknowledge (notifications and Yjs). */
export type UnackedEvent = Exclude<ClientEventName, AckedEvent>;

/** An event the server sends, and its payload as the catalogue parses it. */
export type ServerEventName = keyof typeof SERVER_EVENTS;
export type ServerPayload<E extends ServerEventName> = z.output<(typeof SERVER_EVENTS)[E]>;

/** A Node stand-in for the browser editor: a socket, a Y.Doc and our CollabClient. */
export interface TestEditor {
  socket: Socket;
  doc: Y.Doc;
  awareness: Awareness;
  client: CollabClient;
  /** Every event received, by name, for assertions (lane refusals as `laneRefusal`). */
  received: Map<string, unknown[]>;
  /** The open Yjs lane, when the editor was opened with `lane` and it opened. */
  lane(): LaneClient | undefined;
  /** Joins by the bare id, or with a share link's key. */
  join(request: string | { sessionId: string; key?: string }): Promise<Ack<Joined>>;
  /** The Y.Text of the workspace file at `path` (the JavaScript main file by default). */
  file(path?: string): Y.Text;
  /** The text of the file at `path`, or "" while there is no such file. */
  text(path?: string): string;
  /**
   * Sends an acknowledged event of the catalogue and resolves with its ack, its data checked
   * against the catalogue's ack schema (a timeout is an error ack; data that does not match
   * throws). To forge a payload the catalogue refuses, use `emitAck` on the socket.
   */
  request<E extends AckedEvent>(
    event: E,
    payload: ClientPayloadInput<E>,
    timeoutMs?: number,
  ): Promise<Ack<ClientAckData<E>>>;
  /** Sends an event of the catalogue the server does not acknowledge. */
  send<E extends UnackedEvent>(event: E, payload: ClientPayloadInput<E>): void;
  /** Every `event` received so far, checked against the catalogue's schema (throws on one that does not match). */
  events<E extends ServerEventName>(event: E): ServerPayload<E>[];
  /**
   * Resolves with the first `event` received (since the editor opened) that `match` accepts,
   * checked like `events`; rejects after `timeoutMs` (10 s).
   */
  waitFor<E extends ServerEventName>(
    event: E,
    match?: (payload: ServerPayload<E>) => boolean,
    timeoutMs?: number,
  ): Promise<ServerPayload<E>>;
  /** Leaves the session (waiting for the ack, so no sent update is dropped), then disconnects. */
  close(): Promise<void>;
}

/** Connects (signed in when `token` is given) and wires sync; call `join` next. */
export async function openEditor(
  url: string,
  token?: string,
  /**
   * `lane`: Yjs messages over the lane after each join, as the browser does; `route`: the
   * session id in both handshake URLs, as the browser sends it for a cluster's balancer;
   * `browserBackoff`: reconnect with the browser's delays (1-5 s, randomized) instead of 100 ms.
   */
  options: {
    reconnection?: boolean;
    guestSecret?: string;
    lane?: boolean;
    route?: string;
    browserBackoff?: boolean;
  } = {},
) {
  const identity = token ? { token } : options.guestSecret ? { guestSecret: options.guestSecret } : {};
  const socket = socketClient(
    url,
    { protocolVersion: PROTOCOL_VERSION, ...identity },
    {
      reconnection: options.reconnection ?? false,
      ...(options.browserBackoff
        ? { reconnectionDelay: 1000, reconnectionDelayMax: 5000, randomizationFactor: 0.5 }
        : { reconnectionDelay: 100, reconnectionDelayMax: 300 }),
      ...(options.route ? { query: { [SESSION_ROUTE_PARAM]: options.route } } : {}),
    },
  );
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  let lane: LaneClient | undefined;
  const client = new CollabClient(doc, awareness, {
    sendSync: (m) => (lane ? lane.send(LANE_SYNC, m) : socket.emit("yjsSync", toWire(m))),
    sendAwareness: (m) => (lane ? lane.send(LANE_AWARENESS, m) : socket.emit("yjsAwareness", toWire(m))),
  });
  const received = new Map<string, unknown[]>();
  const record = (event: string, value: unknown) =>
    received.set(event, [...(received.get(event) ?? []), value]);
  socket.onAny((event: string, ...args: unknown[]) => record(event, args[0]));
  /** Opens the lane with the join's ticket and syncs over it (over socket.io if it fails). */
  const openLane = (ticket: string) => {
    const opening = new LaneClient(new WebSocket(laneUrl(url, ticket, options.route)), {
      open: () => {
        lane = opening;
        client.connected();
      },
      message: (kind, m) => (kind === LANE_SYNC ? client.receiveSync(m) : client.receiveAwareness(m)),
      refused: (refusal: LaneRefusal) => record("laneRefusal", refusal),
      closed: (_code, wasOpen) => {
        if (lane === opening) lane = undefined;
        if (wasOpen) client.disconnected();
        if (socket.connected) client.connected();
      },
    });
  };
  socket.on("yjsSync", (m: Uint8Array) => client.receiveSync(fromWire(m)));
  socket.on("yjsAwareness", (m: Uint8Array) => client.receiveAwareness(fromWire(m)));
  socket.on("disconnect", () => client.disconnected());
  let joinedSession: string | undefined;
  let joinedRequest: string | { sessionId: string; key?: string } | undefined;
  const join = (request: string | { sessionId: string; key?: string }) =>
    new Promise<Ack<Joined>>((resolve) => {
      socket.emit("joinSession", request, (result: Ack<Joined>) => {
        if (result.ok) {
          joinedSession = result.data.sessionId;
          joinedRequest = request;
          if (options.lane) openLane(result.data.laneTicket);
          else client.connected();
        }
        resolve(result);
      });
    });
  // After a reconnect the socket is new to the server: join again, then resync.
  socket.io.on("reconnect", () => {
    if (joinedRequest) void join(joinedRequest);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const editor: TestEditor = {
    socket,
    doc,
    awareness,
    client,
    received,
    lane: () => lane,
    join,
    file: (path = LANGUAGE_MAIN_FILES.javascript) => {
      const id = fileIdAt(doc, path);
      if (!id) throw new Error(`no file ${path} in the workspace`);
      return doc.getText(id);
    },
    text: (path = LANGUAGE_MAIN_FILES.javascript) => {
      const id = fileIdAt(doc, path);
      return id ? doc.getText(id).toString() : "";
    },
    request: async <E extends AckedEvent>(event: E, payload: ClientPayloadInput<E>, timeoutMs?: number) => {
      const ack = await emitAck<unknown>(socket, event, payload, timeoutMs);
      if (!ack.ok) return ack;
      const schema: z.ZodType = CLIENT_EVENTS[event].ack;
      return { ok: true, data: checked<ClientAckData<E>>(schema, ack.data, event) };
    },
    send: (event, payload) => socket.emit(event, payload),
    events: (event) => parseEvents(received, event),
    waitFor: async (event, match = () => true, timeoutMs = 10_000) => {
      const first = () => parseEvents(received, event).find(match);
      await waitFor(() => first() !== undefined, timeoutMs, event);
      const found = first();
      if (found === undefined) throw new Error(`${event} went missing`);
      return found;
    },
    close: async () => {
      // The lane first: the server has then applied all it carried before we leave.
      await lane?.close();
      if (joinedSession && socket.connected) {
        const sessionId = joinedSession;
        await new Promise((resolve) => socket.timeout(2000).emit("leaveSession", sessionId, resolve));
      }
      client.destroy();
      socket.disconnect();
    },
  };
  return editor;
}

/** The payloads of `event` in `received`, each checked against the catalogue's schema. */
function parseEvents<E extends ServerEventName>(
  received: Map<string, unknown[]>,
  event: E,
): ServerPayload<E>[] {
  const schema: z.ZodType = SERVER_EVENTS[event];
  return (received.get(event) ?? []).map((payload) => checked<ServerPayload<E>>(schema, payload, event));
}

/**
 * `value` once `schema` accepts it, as the server sent it: a test's `toEqual` still sees any
 * field the catalogue would strip. `schema` is the catalogue's entry for the event, whose type
 * TypeScript cannot follow through the index, hence `T`.
 */
function checked<T>(schema: z.ZodType, value: unknown, event: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${event} does not match the catalogue: ${parsed.error.message}`);
  return value as T;
}

/**
 * Sends an acknowledged event on any socket (a raw one forging requests too) and resolves with
 * its ack; no answer in time is an error ack with the code `timeout`.
 */
export function emitAck<T>(
  socket: Socket,
  event: string,
  payload: unknown,
  timeoutMs = 30_000,
): Promise<Ack<T>> {
  return new Promise((resolve) =>
    socket
      .timeout(timeoutMs)
      .emit(event, payload, (err: Error | null, ack: Ack<T>) =>
        resolve(err ? { ok: false, error: { code: "timeout", message: err.message } } : ack),
      ),
  );
}

/** Resolves once `predicate` holds (it may ask over the network), polling every 10 ms, or rejects after `timeoutMs`. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Editors opened during a suite against a server known once it started; closed together at the end. */
export function editorPool(url: () => string) {
  const opened: TestEditor[] = [];
  async function open(token?: string, options?: Parameters<typeof openEditor>[2]) {
    const editor = await openEditor(url(), token, options);
    opened.push(editor);
    return editor;
  }
  return {
    open,
    /** A fresh session with its host (signed in) and a guest, both joined and synced. */
    async hostAndGuest(api: TestServer["api"], title: string) {
      const { host: hostUser, sessionId } = await buildSession(api, title);
      const host = await open(hostUser.token);
      const guest = await open();
      await host.join(sessionId);
      await guest.join(sessionId);
      await waitFor(() => host.client.synced && guest.client.synced);
      return { sessionId, host, guest, hostUser };
    },
    closeAll: () => Promise.all(opened.map((e) => e.close())),
  };
}

/**
 * Types a line in the shared terminal (with a GitHub connection, as the host's browser sends
 * it for `git push|pull|auth`) and resolves with the entries answered to it, after the echo.
 */
export async function typeLine(
  editor: TestEditor,
  sessionId: string,
  line: string,
  github?: GithubTarget,
): Promise<Pick<TerminalEntry, "type" | "content">[]> {
  const updates = () => editor.events("terminalUpdate");
  const before = updates().length;
  await editor.request("terminalCommand", { sessionId, command: line, github }, 60_000);
  await waitFor(() => updates().length > before, 10_000, `the answer to ${line}`);
  const update = updates()[before];
  const entries = update?.entries ?? (update?.entry ? [update.entry] : []);
  if (entries[0]?.content !== `$ ${line}`)
    throw new Error(`expected the echo of ${line}, got ${entries[0]?.content}`);
  return entries.slice(1).map(({ type, content }) => ({ type, content }));
}

/** A lane spoken raw: every frame and the close it gets, for what the editor client would hide. */
export function rawLane(url: string) {
  const ws = new WebSocket(url);
  const frames: (Uint8Array | string)[] = [];
  ws.on("message", (data: Buffer, isBinary) =>
    frames.push(isBinary ? new Uint8Array(data) : data.toString()),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  return { ws, frames, opened, closed };
}
