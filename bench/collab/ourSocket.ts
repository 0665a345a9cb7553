import {
  CollabClient,
  fromWire,
  LANE_AWARENESS,
  LANE_SYNC,
  LaneClient,
  type LaneMessage,
  laneUrl,
  toWire,
} from "@ensemble/collab";
import { type Ack, type Joined, PROTOCOL_VERSION, SESSION_ROUTE_PARAM } from "@ensemble/protocol";
import { io, type Socket } from "socket.io-client";
import msgpackParser from "socket.io-msgpack-parser";
import WebSocket from "ws";
import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";

/**
 * A socket.io connection to our server as the browser opens one: msgpack, websocket only, the
 * protocol version in the handshake; signed in with `token`, or an anonymous guest. Every call
 * makes its own connection, as separate browsers would. `route`: the session id in the
 * handshake URL, for a cluster's balancer.
 */
export function ourSocket(baseUrl: string, token?: string, route?: string): Socket {
  return io(baseUrl, {
    transports: ["websocket"],
    parser: msgpackParser,
    ...(route ? { query: { [SESSION_ROUTE_PARAM]: route } } : {}),
    auth: token ? { protocolVersion: PROTOCOL_VERSION, token } : { protocolVersion: PROTOCOL_VERSION },
    forceNew: true,
  });
}

/** Joins `sessionId` over a connected (or connecting) socket; a refusal is an error. */
export async function joinSession(socket: Socket, sessionId: string): Promise<Joined> {
  const ack: Ack<Joined> = await socket.emitWithAck("joinSession", sessionId);
  if (!ack.ok) throw new Error(`joinSession ${sessionId} refused: ${ack.error.message}`);
  return ack.data;
}

/** How our clients carry Yjs: `lane` (as the browser does) or `socketio` (BENCH_OUR_TRANSPORT). */
export const OUR_TRANSPORT = process.env.BENCH_OUR_TRANSPORT === "socketio" ? "socketio" : "lane";

/** Our `CollabClient` and how to start syncing once a session is joined. */
export interface OurCollab {
  client: CollabClient;
  /** Syncs over the join's lane (or socket.io, with BENCH_OUR_TRANSPORT=socketio). */
  start(joined: Joined): void;
  close(): void;
}

/**
 * Our `CollabClient` for `doc` on `socket` to the server at `baseUrl`, as the browser wires it: after a join, Yjs goes
 * over the lane the join's ticket opens; on socket.io (before that, or with
 * BENCH_OUR_TRANSPORT=socketio) messages go out through `toWire` and come in through
 * `fromWire`, as the protocol package says Node must. `onReceived` sees every Yjs or
 * awareness message the server delivered.
 */
export function attachCollab(
  baseUrl: string,
  socket: Socket,
  doc: Y.Doc,
  awareness: Awareness,
  onReceived: () => void = () => {},
  /** Called when a lane opens (the bench's timing of a join). */
  onLaneOpen: () => void = () => {},
): OurCollab {
  let lane: LaneClient | undefined;
  const send = ([kind, m]: LaneMessage) => {
    if (lane) lane.send(kind, m);
    else socket.emit(kind === LANE_SYNC ? "yjsSync" : "yjsAwareness", toWire(m));
  };
  const client = new CollabClient(doc, awareness, {
    sendSync: (m) => send([LANE_SYNC, m]),
    sendAwareness: (m) => send([LANE_AWARENESS, m]),
  });
  const refused = (error: { event: string; code: string; message: string }) =>
    console.error(`refused ${error.event}: ${error.code} ${error.message}`);
  socket.on("yjsSync", (m: Uint8Array | ArrayBuffer) => {
    onReceived();
    client.receiveSync(fromWire(m));
  });
  socket.on("yjsAwareness", (m: Uint8Array | ArrayBuffer) => {
    onReceived();
    client.receiveAwareness(fromWire(m));
  });
  socket.on("disconnect", () => {
    void lane?.close();
    lane = undefined;
    client.disconnected();
  });
  socket.on("socketError", refused);
  return {
    client,
    start(joined) {
      // As the browser does: our user as the server stamps it, so it sends our awareness on as it is.
      const user: unknown = awareness.getLocalState()?.user;
      const own = typeof user === "object" && user !== null ? user : {};
      awareness.setLocalStateField("user", { ...own, id: joined.self.id, name: joined.self.name });
      if (OUR_TRANSPORT === "socketio") {
        client.connected();
        return;
      }
      const opening = new LaneClient(new WebSocket(laneUrl(baseUrl, joined.laneTicket, joined.sessionId)), {
        open: () => {
          onLaneOpen();
          lane = opening;
          client.connected();
        },
        message: (kind, m) => {
          onReceived();
          if (kind === LANE_SYNC) client.receiveSync(m);
          else client.receiveAwareness(m);
        },
        refused,
        closed: (code, wasOpen) => {
          if (lane === opening) lane = undefined;
          if (!wasOpen) console.error(`the lane did not open (${code}); syncing over socket.io`);
          if (socket.connected) client.connected();
        },
      });
    },
    close() {
      client.destroy();
      void lane?.close();
    },
  };
}
