import { CollabClient, fromWire, toWire } from "@ensemble/collab";
import { type Ack, type Joined, PROTOCOL_VERSION } from "@ensemble/protocol";
import { io, type Socket } from "socket.io-client";
import msgpackParser from "socket.io-msgpack-parser";
import type { Awareness } from "y-protocols/awareness";
import type * as Y from "yjs";

/**
 * A socket.io connection to our server as the browser opens one: msgpack, websocket only, the
 * protocol version in the handshake; signed in with `token`, or an anonymous guest. Every call
 * makes its own connection, as separate browsers would.
 */
export function ourSocket(baseUrl: string, token?: string): Socket {
  return io(baseUrl, {
    transports: ["websocket"],
    parser: msgpackParser,
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

/**
 * Our `CollabClient` for `doc` on `socket`: Yjs messages go out through `toWire` and come in
 * through `fromWire`, as the protocol package says Node must (a bare Uint8Array would not go
 * out as msgpack bin). Call `client.connected()` once the session is joined; `onReceived` sees
 * every Yjs or awareness message the server delivered.
 */
export function attachCollab(
  socket: Socket,
  doc: Y.Doc,
  awareness: Awareness,
  onReceived: () => void = () => {},
): CollabClient {
  const client = new CollabClient(doc, awareness, {
    sendSync: (m) => socket.emit("yjsSync", toWire(m)),
    sendAwareness: (m) => socket.emit("yjsAwareness", toWire(m)),
  });
  socket.on("yjsSync", (m: Uint8Array | ArrayBuffer) => {
    onReceived();
    client.receiveSync(fromWire(m));
  });
  socket.on("yjsAwareness", (m: Uint8Array | ArrayBuffer) => {
    onReceived();
    client.receiveAwareness(fromWire(m));
  });
  socket.on("disconnect", () => client.disconnected());
  socket.on("socketError", (error: { event: string; code: string; message: string }) => {
    console.error(`socketError on ${error.event}: ${error.code} ${error.message}`);
  });
  return client;
}
