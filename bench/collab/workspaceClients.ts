import { listWorkspace } from "@ensemble/collab";
import type { Ack } from "@ensemble/protocol";
import { joinSession, ourSocket } from "./ourSocket";
import type { ProjectFile } from "./project";
import { MAIN_FILE, textNameOf } from "./session";
import { type Counters, connectClient } from "./transports";

/** A socket joined to a session as the browser joins it (guest, msgpack, websocket only). */
async function joinedSocket(baseUrl: string, sessionId: string) {
  const socket = ourSocket(baseUrl);
  await joinSession(socket, sessionId);
  return socket;
}

/**
 * Fills each session's workspace with `files` through the real `createFile` event, one file
 * after the other per session (each is stored before it is acknowledged), `parallel`
 * sessions at a time. The sockets leave afterwards, so every room unloads (and compacts).
 */
export async function fillWorkspaces(
  baseUrl: string,
  sessionIds: string[],
  files: ProjectFile[],
  parallel = 5,
): Promise<void> {
  const queue = [...sessionIds];
  const worker = async () => {
    for (let sessionId = queue.shift(); sessionId !== undefined; sessionId = queue.shift()) {
      const socket = await joinedSocket(baseUrl, sessionId);
      for (const { path, content } of files) {
        const ack: Ack<{ path: string }> = await socket.emitWithAck("createFile", {
          sessionId,
          path,
          kind: "file",
          content,
        });
        if (!ack.ok) throw new Error(`createFile ${path} refused: ${ack.error.message}`);
      }
      socket.disconnect();
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/**
 * Times what a person opening the session waits for: from creating the socket, through
 * `joinSession` and the Yjs sync, until the doc lists `fileCount` files and `src/main.js`
 * has its text (what the tree and the first editor need). Returns milliseconds.
 */
export async function timeJoin(baseUrl: string, sessionId: string, fileCount: number): Promise<number> {
  const counters: Counters = { keystrokes: 0, received: 0, disconnects: 0, updatesSent: 0 };
  const started = performance.now();
  const client = connectClient("ours", baseUrl, sessionId, counters);
  const isShown = () => {
    if (listWorkspace(client.doc).files.length < fileCount) return false;
    return client.doc.getText(textNameOf("ours", client.doc, MAIN_FILE)).length > 0;
  };
  await client.synced;
  if (!isShown()) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${sessionId} not shown within 60 s`)), 60_000);
      const onUpdate = () => {
        if (!isShown()) return;
        clearTimeout(timer);
        client.doc.off("update", onUpdate);
        resolve();
      };
      client.doc.on("update", onUpdate);
    });
  }
  const ms = performance.now() - started;
  client.close();
  return ms;
}

/** Join times (ms) into `sessionIds`, `concurrency` new clients at a time, each batch awaited. */
export async function timeJoins(
  baseUrl: string,
  sessionIds: string[],
  fileCount: number,
  concurrency: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < sessionIds.length; i += concurrency) {
    const batch = sessionIds.slice(i, i + concurrency);
    times.push(...(await Promise.all(batch.map((id) => timeJoin(baseUrl, id, fileCount)))));
  }
  return times;
}
