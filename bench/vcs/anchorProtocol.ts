import { type Anchor, type BareTiming, createBareRepo } from "./bareRepo";
import type { Trace } from "./trace";

/** A command to an anchor served in another process (`serveAnchor`). */
export type AnchorCommand =
  | { command: "create"; dir: string; files: [string, string][] }
  | { command: "write"; files: [string, string][] }
  | { command: "status" }
  | { command: "addAndCommit"; message: string }
  | { command: "close" };

/**
 * The anchor's side in the process that runs git: a repository made on `create` (and watched
 * by `trace`), then each command answered with its value, timed inside this process.
 */
export function serveAnchor(trace: Trace): (message: AnchorCommand) => Promise<unknown> {
  let repo: Anchor | undefined;
  return async (message) => {
    if (message.command === "create") {
      trace.watch(message.dir);
      repo = await createBareRepo(message.dir, new Map(message.files), trace);
      return undefined;
    }
    if (!repo) throw new Error("no repository yet");
    if (message.command === "write") return repo.write(new Map(message.files));
    if (message.command === "status") return repo.status();
    if (message.command === "addAndCommit") return repo.addAndCommit(message.message);
    return repo.close();
  };
}

function isTiming(value: unknown): value is BareTiming {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { ms?: unknown }).ms === "number" &&
    Array.isArray((value as { spans?: unknown }).spans)
  );
}

/**
 * The asking side: an Anchor whose repository lives in the process `call` reaches, made there
 * with `files` in `dir`. With `withIpc`, each timing also says how long the round trip around
 * it took (what a server asking such a helper would add).
 */
export async function remoteAnchor(
  call: (command: AnchorCommand) => Promise<unknown>,
  dir: string,
  files: ReadonlyMap<string, string>,
  withIpc: boolean,
): Promise<Anchor> {
  const timing = async (command: AnchorCommand) => {
    const started = performance.now();
    const value = await call(command);
    const wall = performance.now() - started;
    if (!isTiming(value)) throw new Error(`${command.command} answered ${JSON.stringify(value)}`);
    return withIpc ? { ...value, ipcMs: wall - value.ms } : value;
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
  };
}
