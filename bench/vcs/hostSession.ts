import { fileIdAt, listWorkspace } from "@ensemble/collab";
import { type GitOperation, type GitOutcome, GitOutcomeSchema } from "@ensemble/protocol";
import { openEditor, type TestEditor, waitFor } from "../../apps/server/test/collabClient";
import { apiClient, buildSession } from "../../apps/server/test/harness";
import type { ProjectFile } from "../collab/project";
import { between } from "../collab/stats";
import { fillWorkspaces } from "../collab/workspaceClients";

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
  const { host: user, sessionId } = await buildSession(apiClient(url), "vcs bench");
  const host: TestEditor = await openEditor(url, user.token);
  const joined = await host.join(sessionId);
  if (!joined.ok) throw new Error(`joinSession refused: ${joined.error.message}`);
  await waitFor(() => host.client.synced, 10_000, "the host's sync");
  await fillWorkspaces(url, [sessionId], files, 1);
  const count = files.length + 1;
  await waitFor(() => listWorkspace(host.doc).files.length === count, 60_000, `${count} files at the host`);

  const textOf = (path: string) => {
    const id = fileIdAt(host.doc, path);
    if (id === undefined) throw new Error(`no file ${path}`);
    return host.doc.getText(id);
  };

  return {
    sessionId,
    host,
    /** Every file's text as the host's document holds it. */
    files(): Map<string, string> {
      return new Map(listWorkspace(host.doc).files.map((f) => [f.path, host.doc.getText(f.id).toString()]));
    },

    /** Sends one `gitOperation` and waits for its ack; a refusal is an error. */
    async git(operation: GitOperation): Promise<Timed> {
      const sent = performance.now();
      const ack = await host.request<unknown>("gitOperation", { sessionId, operation }, 60_000);
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
        host.doc.transact(() => text.insert(at, `const ${label} = ${between(random, 1, 9999)};\n`));
        edited.set(path, text.toString());
      }
      return edited;
    },

    close: () => host.close(),
  };
}

export type HostSession = Awaited<ReturnType<typeof openHostSession>>;
