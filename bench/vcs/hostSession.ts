import { fileIdAt, listWorkspace } from "@ensemble/collab";
import { type Ack, type GitOperation, type GitOutcome, GitOutcomeSchema } from "@ensemble/protocol";
import { Awareness } from "y-protocols/awareness";
import * as Y from "yjs";
import { createSession, register } from "../collab/documents";
import { attachCollab, joinSession, ourSocket } from "../collab/ourSocket";
import type { ProjectFile } from "../collab/project";
import { between } from "../collab/random";
import { fillWorkspaces } from "../collab/workspaceClients";
import { waitFor } from "../lib/wait";

/** A git operation's answer and when it was sent and acknowledged (`performance.now()`). */
export interface Timed {
  sent: number;
  acked: number;
  outcome: GitOutcome;
}

/**
 * A signed-in host's session on the server at `url`, joined over socket.io as the browser
 * does, its workspace filled with `files` through `createFile` (src/main.js comes with it).
 */
export async function openHostSession(url: string, files: ProjectFile[]) {
  const token = await register(url, "vcs-bench");
  const sessionId = await createSession(url, token, "vcs bench");
  const socket = ourSocket(url, token);
  const doc = new Y.Doc();
  const collab = attachCollab(url, socket, doc, new Awareness(doc));
  const { client } = collab;
  collab.start(await joinSession(socket, sessionId));
  await waitFor(() => client.synced, 10_000, "the host's sync");
  await fillWorkspaces(url, [sessionId], files, 1);
  const count = files.length + 1;
  await waitFor(() => listWorkspace(doc).files.length === count, 60_000, `${count} files at the host`);

  const textOf = (path: string) => {
    const id = fileIdAt(doc, path);
    if (id === undefined) throw new Error(`no file ${path}`);
    return doc.getText(id);
  };

  return {
    sessionId,
    /** Every file's text as the host's document holds it. */
    files(): Map<string, string> {
      return new Map(listWorkspace(doc).files.map((f) => [f.path, doc.getText(f.id).toString()]));
    },

    /** Sends one `gitOperation` and waits for its ack; a refusal is an error. */
    async git(operation: GitOperation): Promise<Timed> {
      const sent = performance.now();
      const ack: Ack<unknown> = await socket
        .timeout(60_000)
        .emitWithAck("gitOperation", { sessionId, operation });
      const acked = performance.now();
      if (!ack.ok) throw new Error(`git ${operation.op} refused: ${ack.error.message}`);
      return { sent, acked, outcome: GitOutcomeSchema.parse(ack.data) };
    },

    /**
     * Inserts a line of code at the start of a random line of each file, one transaction per
     * file as a person's edit would be; returns the files' new texts.
     */
    edit(paths: readonly string[], random: () => number, label: string): Map<string, string> {
      const edited = new Map<string, string>();
      for (const path of paths) {
        const text = textOf(path);
        const content = text.toString();
        const starts = [0];
        for (
          let i = content.indexOf("\n");
          i !== -1 && i < content.length - 1;
          i = content.indexOf("\n", i + 1)
        )
          starts.push(i + 1);
        const at = starts[between(random, 0, starts.length - 1)] ?? 0;
        doc.transact(() => text.insert(at, `const ${label} = ${between(random, 1, 9999)};\n`));
        edited.set(path, text.toString());
      }
      return edited;
    },

    /** Leaves the session (waiting for the ack, so no sent update is dropped), then disconnects. */
    async close() {
      await socket
        .timeout(2000)
        .emitWithAck("leaveSession", sessionId)
        .catch(() => {});
      collab.close();
      socket.disconnect();
    },
  };
}

export type HostSession = Awaited<ReturnType<typeof openHostSession>>;
