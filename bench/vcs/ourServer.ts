import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, startServer } from "../collab/servers";
import { type AnchorCommand, remoteAnchor } from "./anchorProtocol";
import type { Anchor } from "./bareRepo";
import type { HookCommand, HookReply } from "./serverHooks";
import type { ServerTrace } from "./sides";
import { fromMonotonic, type Span } from "./trace";

type Command = HookCommand extends infer C ? (C extends HookCommand ? Omit<C, "type" | "id"> : never) : never;

/**
 * Our server as the vcs bench needs it: the production bundle in its own process, with
 * `serverHooks.ts` preloaded, whose trace of the server's calls and whose anchor (git started
 * from the server's process) this process reaches over IPC.
 */
export async function startOurServer() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "ensemble-bench-vcs-server-"));
  const server = await startServer("ours", {
    port: await freePort(),
    dataDir,
    preload: [path.join(import.meta.dirname, "serverHooks.ts")],
  });
  let nextId = 0;
  const call = async (command: Command): Promise<unknown> => {
    const id = nextId++;
    const reply = await server.ask<HookReply>({ ...command, type: "vcs", id }, `vcs:${id}`);
    if (reply.error) throw new Error(reply.error);
    return reply.value;
  };
  const trace: ServerTrace & { watch(folder: string): Promise<void> } = {
    watch: async (folder) => {
      await call({ command: "watch", folder });
    },
    start: async () => {
      await call({ command: "start" });
    },
    // Our own preload's answer, on the monotonic clock.
    take: async () => fromMonotonic((await call({ command: "take" })) as Span[]),
  };
  return {
    server,
    /** Where the server keeps each session's repository (`DATA_DIR/repos/<session id>`). */
    reposDir: path.join(dataDir, "repos"),
    trace,
    /** A bare-git anchor in `dir`, holding `files`, whose git runs from the server's process. */
    anchor: (dir: string, files: ReadonlyMap<string, string>): Promise<Anchor> =>
      remoteAnchor((command: AnchorCommand) => call(command), dir, files, false),
    async close() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
