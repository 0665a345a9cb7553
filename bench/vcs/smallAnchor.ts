import { fork } from "node:child_process";
import path from "node:path";
import type { AnchorCommand } from "./anchorProtocol";
import { remoteAnchor } from "./anchorProtocol";
import type { Anchor } from "./bareRepo";
import type { WorkerReply } from "./bareWorker";

/**
 * The anchor run by `bareWorker.ts` in a small child process: the same repository and bare
 * commands as `createBareRepo`, started from a process the size of a person's shell rather
 * than the server's. `rssMb()` is the child's memory at its last answer.
 */
export async function startSmallAnchor(
  dir: string,
  files: ReadonlyMap<string, string>,
): Promise<Anchor & { pid: number; rssMb(): number }> {
  const child = fork(path.join(import.meta.dirname, "bareWorker.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, (reply: WorkerReply) => void>();
  let nextId = 0;
  let rssMb = 0;
  child.on("message", (reply: WorkerReply) => {
    rssMb = reply.rssMb;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  const call = (command: AnchorCommand) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply.value)));
      child.send({ ...command, id });
    });
  const anchor = await remoteAnchor(call, dir, files, true);
  return { ...anchor, pid: child.pid ?? 0, rssMb: () => rssMb };
}
