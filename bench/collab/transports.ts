import { HocuspocusProvider, type HocuspocusProviderConfiguration } from "@hocuspocus/provider";
import WebSocket from "ws";
import { Awareness } from "y-protocols/awareness";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { attachCollab, joinSession, ourSocket } from "./ourSocket";
import { SYSTEMS, type SystemId } from "./systems";

/** What the clients of one load generator typed, received, and how often they lost a connection. */
export interface Counters {
  keystrokes: number;
  received: number;
  disconnects: number;
  /** Local Yjs updates the clients made (each goes out as one message), since they connected. */
  updatesSent: number;
}

/** One connected editor: its own Y.Doc and awareness, synced with the server. */
export interface BenchClient {
  doc: Y.Doc;
  awareness: Awareness;
  /** Resolves on the first full sync with the server. */
  synced: Promise<void>;
  /**
   * When each step of the connection was reached (performance.now()), in order: ours
   * `connected` (socket.io), `joined` (joinSession's answer), `laneOpen`; a peer's `open` (its
   * WebSocket). What each step costs in round trips is the cold load's to tell.
   */
  phases: Record<string, number>;
  close(): void;
}

/** Connects one client of `system` at `baseUrl` (http://host:port) to document `name`. */
export function connectClient(system: SystemId, baseUrl: string, name: string, counters: Counters) {
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  awareness.setLocalStateField("user", { name: `bench-${doc.clientID}`, color: "#30bced" });
  const { protocol } = SYSTEMS[system];
  if (protocol === "ours") return connectOurs(baseUrl, name, doc, awareness, counters);
  if (protocol === "hocuspocus") return connectHocuspocus(baseUrl, name, doc, awareness, counters);
  return connectYWebsocket(baseUrl, name, doc, awareness, counters);
}

/** Our browser's path: socket.io + msgpack, joinSession, then CollabClient. */
function connectOurs(
  baseUrl: string,
  sessionId: string,
  doc: Y.Doc,
  awareness: Awareness,
  counters: Counters,
) {
  // The session id in the handshake URL, as the browser sends it: a cluster's balancer hashes on it.
  const socket = ourSocket(baseUrl, undefined, sessionId);
  const phases: Record<string, number> = {};
  const collab = attachCollab(
    baseUrl,
    socket,
    doc,
    awareness,
    () => {
      counters.received += 1;
    },
    () => {
      phases.laneOpen ??= performance.now();
    },
  );
  const { client } = collab;
  const synced = new Promise<void>((resolve) => client.onSynced((isSynced) => isSynced && resolve()));
  socket.on("connect", () => {
    phases.connected ??= performance.now();
    joinSession(socket, sessionId).then(
      (joined) => {
        phases.joined ??= performance.now();
        collab.start(joined);
      },
      (error: unknown) => console.error(String(error)),
    );
  });
  socket.on("disconnect", () => {
    counters.disconnects += 1;
  });
  const close = () => {
    collab.close();
    socket.disconnect();
  };
  return { doc, awareness, synced, phases, close } satisfies BenchClient;
}

/**
 * A `ws` WebSocket that counts every frame it receives (what the server delivered) and notes
 * in `phases` when the first one opened.
 */
function countingWebSocket(counters: Counters, phases: Record<string, number>) {
  return class CountingWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.on("open", () => {
        phases.open ??= performance.now();
      });
      this.on("message", () => {
        counters.received += 1;
      });
      this.on("close", () => {
        counters.disconnects += 1;
      });
      // The providers report failures through "close"; an unhandled "error" would end the process.
      this.on("error", () => {});
    }
  };
}

function connectHocuspocus(
  baseUrl: string,
  name: string,
  doc: Y.Doc,
  awareness: Awareness,
  counters: Counters,
) {
  const phases: Record<string, number> = {};
  // Without a `websocketProvider` the provider hands its whole configuration to the socket it
  // creates, polyfill included; the configuration type only lists `url`.
  const configuration = {
    url: baseUrl.replace("http", "ws"),
    name,
    document: doc,
    awareness,
    WebSocketPolyfill: countingWebSocket(counters, phases),
  };
  const provider = new HocuspocusProvider(configuration as HocuspocusProviderConfiguration);
  const synced = new Promise<void>((resolve) => provider.on("synced", () => resolve()));
  return { doc, awareness, synced, phases, close: () => provider.destroy() } satisfies BenchClient;
}

function connectYWebsocket(
  baseUrl: string,
  name: string,
  doc: Y.Doc,
  awareness: Awareness,
  counters: Counters,
) {
  const phases: Record<string, number> = {};
  const provider = new WebsocketProvider(baseUrl.replace("http", "ws"), name, doc, {
    awareness,
    WebSocketPolyfill: countingWebSocket(counters, phases) as unknown as typeof globalThis.WebSocket,
    // Node 20 has a global BroadcastChannel: without this, clients in one process would sync
    // through it and bypass the server.
    disableBc: true,
  });
  const synced = new Promise<void>((resolve) => {
    const onSync = (isSynced: boolean) => {
      if (!isSynced) return;
      provider.off("sync", onSync);
      resolve();
    };
    provider.on("sync", onSync);
  });
  return { doc, awareness, synced, phases, close: () => provider.destroy() } satisfies BenchClient;
}
