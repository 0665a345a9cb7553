import { fork } from "node:child_process";
import path from "node:path";
import type { Anchor, BareTiming } from "./bareRepo";
import type { WorkerCommand, WorkerReply } from "./bareWorker";

type Command = WorkerCommand extends infer C ? (C extends WorkerCommand ? Omit<C, "id"> : never) : never;

function isTiming(value: unknown): value is BareTiming {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { ms?: unknown }).ms === "number" &&
    Array.isArray((value as { spans?: unknown }).spans)
  );
}

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
  const call = (command: Command) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply.value)));
      child.send({ ...command, id });
    });
  const timing = async (command: Command) => {
    const started = performance.now();
    const value = await call(command);
    const wall = performance.now() - started;
    if (!isTiming(value)) throw new Error(`${command.command} answered ${JSON.stringify(value)}`);
    return { ...value, ipcMs: wall - value.ms };
  };

  await call({ command: "create", dir, files: [...files] });
  return {
    write: async (changed) => {
      await call({ command: "write", files: [...changed] });
    },
    status: async () => {
      const value = await timing({ command: "status" });
      const paths = (value as { paths?: unknown }).paths;
      if (!Array.isArray(paths)) throw new Error("status answered no paths");
      return { ...value, paths: paths.map(String) };
    },
    addAndCommit: (message) => timing({ command: "addAndCommit", message }),
    close: async () => {
      await call({ command: "close" });
    },
    pid: child.pid ?? 0,
    rssMb: () => rssMb,
  };
}
