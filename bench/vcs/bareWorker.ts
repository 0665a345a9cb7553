/**
 * The bare-git anchor in a process of its own, small as a shell's (git is started by fork +
 * exec, whose cost grows with the parent's memory). Started by `startSmallAnchor`; answers
 * each command of `WorkerCommand` with `WorkerReply`.
 */
import { type Anchor, createBareRepo } from "./bareRepo";
import { installTrace } from "./trace";

export type WorkerCommand = { id: number } & (
  | { command: "create"; dir: string; files: [string, string][] }
  | { command: "write"; files: [string, string][] }
  | { command: "status" }
  | { command: "addAndCommit"; message: string }
  | { command: "close" }
);

export interface WorkerReply {
  id: number;
  value?: unknown;
  error?: string;
  /** This process's resident memory when it answered. */
  rssMb: number;
}

const trace = installTrace();
let repo: Anchor | undefined;

async function answer(message: WorkerCommand): Promise<unknown> {
  if (message.command === "create") {
    trace.watch(message.dir);
    repo = await createBareRepo(message.dir, new Map(message.files), trace);
    return undefined;
  }
  if (!repo) throw new Error("no repository yet");
  if (message.command === "write") return repo.write(new Map(message.files));
  if (message.command === "status") return repo.status();
  if (message.command === "addAndCommit") return repo.addAndCommit(message.message);
  await repo.close();
  // After the reply below has gone.
  setImmediate(() => process.disconnect());
  return undefined;
}

process.on("message", (message: WorkerCommand) => {
  const reply = (fields: { value?: unknown; error?: string }) =>
    process.send?.({
      id: message.id,
      ...fields,
      rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    } satisfies WorkerReply);
  answer(message).then(
    (value) => reply({ value }),
    (error: unknown) => reply({ error: String(error) }),
  );
});
