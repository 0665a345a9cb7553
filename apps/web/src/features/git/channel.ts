import { type GitOperation, GitStatusUpdateSchema } from "@ensemble/protocol";
import type * as Y from "yjs";
import type { EditorSocket } from "../../lib/socket";
import { showFailure } from "./feedback";
import { type GitResult, GitRunner } from "./runner";
import { applyStatus, resetGit, useGitStore } from "./store";

/** Push and pull talk to GitHub, and the server runs one operation at a time per session. */
const GIT_ACK_TIMEOUT_MS = 120_000;

const OFFLINE = {
  ok: false,
  error: { code: "offline", message: "You are offline. Git operations run when the connection is back." },
};

/**
 * Version control over the session's socket. Everyone follows the repository's status from
 * `gitStatus`; the host also asks for it on join, after the files change (debounced) and
 * when someone joins, since only the host may run git, and re-checks a stored GitHub
 * connection on join.
 */
export class GitChannel {
  private readonly runner: GitRunner;
  private isHost = false;

  constructor(
    socket: EditorSocket,
    readonly sessionId: string,
    private readonly doc: Y.Doc,
  ) {
    resetGit();
    this.runner = new GitRunner(
      (operation) =>
        new Promise((resolve) => {
          // Emitted while disconnected it would wait in socket.io's buffer and reach the
          // server before our next join.
          if (!socket.connected) resolve(OFFLINE);
          else
            socket
              .timeout(GIT_ACK_TIMEOUT_MS)
              .emit("gitOperation", { sessionId, operation }, (err, ack) => resolve(err ? null : ack));
        }),
    );
    socket.on("gitStatus", (payload) => {
      const parsed = GitStatusUpdateSchema.safeParse(payload);
      if (parsed.success && parsed.data.sessionId === this.sessionId) applyStatus(parsed.data.status);
    });
    // gitStatus goes out only after an operation: a newcomer learns the status from the next.
    socket.on("participantJoined", () => {
      if (this.isHost) this.runner.refreshSoon();
    });
    socket.on("disconnect", () => this.runner.cancelRefresh());
    doc.on("update", this.handleUpdate);
  }

  /** Runs an operation for the host; refused while another of ours runs. */
  run(operation: GitOperation): Promise<GitResult> {
    return this.runner.run(operation);
  }

  /** Called on each successful join with our role in the session. */
  joined(isHost: boolean): void {
    this.isHost = isHost;
    if (!isHost) {
      this.runner.cancelRefresh();
      return;
    }
    const { target } = useGitStore.getState();
    if (!target) {
      void this.runner.refreshNow();
      return;
    }
    // A stored connection is checked again, quietly unless GitHub or the server refuses it.
    void this.runner.run({ op: "connect", github: target }).then((result) => {
      if (!result.ok && result.code !== "busy" && result.code !== "offline") showFailure(result);
    });
  }

  destroy(): void {
    this.runner.cancelRefresh();
    this.doc.off("update", this.handleUpdate);
  }

  // Any change, ours or a collaborator's, may change what git sees.
  private readonly handleUpdate = () => {
    if (this.isHost) this.runner.refreshSoon();
  };
}
