/**
 * The bare-git anchor in a process of its own, small as a shell's (git is started by fork +
 * exec, whose cost grows with the parent's memory). Started by `startSmallAnchor`; answers
 * each `WorkerCommand` with a `WorkerReply`.
 */
import { type AnchorCommand, serveAnchor } from "./anchorProtocol";
import { installTrace } from "./trace";

export type WorkerCommand = { id: number } & AnchorCommand;

export interface WorkerReply {
  id: number;
  value?: unknown;
  error?: string;
  /** This process's resident memory when it answered. */
  rssMb: number;
}

const serve = serveAnchor(installTrace());

process.on("message", (message: WorkerCommand) => {
  const reply = (fields: { value?: unknown; error?: string }) =>
    process.send?.({
      id: message.id,
      ...fields,
      rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    } satisfies WorkerReply);
  serve(message).then(
    (value) => {
      reply({ value });
      // After the reply has gone.
      if (message.command === "close") setImmediate(() => process.disconnect());
    },
    (error: unknown) => reply({ error: String(error) }),
  );
});
