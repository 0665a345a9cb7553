import type { GitOperation } from "@ensemble/protocol";
import { type ChannelScope, defineChannel } from "../../lib/sessionChannels";
import { showFailure } from "./feedback";
import { type GitResult, GitRunner } from "./runner";
import { applyStatus, resetGit, useGitStore } from "./store";

const OFFLINE = "You are offline. Git operations run when the connection is back.";

/**
 * Version control over the session's socket. Everyone follows the repository's status from
 * `gitStatus`; the host also asks for it on join, after the files change (debounced) and
 * when someone joins, since only the host may run git, and re-checks a stored GitHub
 * connection on join.
 */
export class GitChannel {
  private readonly runner: GitRunner;
  private isHost = false;
  readonly sessionId: string;

  constructor({ link, doc, lifecycle }: ChannelScope) {
    this.sessionId = link.sessionId;
    resetGit();
    this.runner = new GitRunner((operation) =>
      link.request("gitOperation", { sessionId: link.sessionId, operation }, { offline: OFFLINE }),
    );
    link.listen("gitStatus", ({ status }) => applyStatus(status));
    // gitStatus goes out only after an operation: a newcomer learns the status from the next.
    link.listen("participantJoined", () => {
      if (this.isHost) this.runner.refreshSoon();
    });
    lifecycle.on("joined", ({ self }) => this.joined(self.isHost));
    lifecycle.on("selfChanged", (self) => this.joined(self.isHost));
    lifecycle.on("left", () => this.runner.cancelRefresh());
    lifecycle.on("ended", () => {
      this.runner.cancelRefresh();
      doc.off("update", this.handleUpdate);
    });
    doc.on("update", this.handleUpdate);
  }

  /** Runs an operation for the host; refused while another of ours runs. */
  run(operation: GitOperation): Promise<GitResult> {
    return this.runner.run(operation);
  }

  /** On each successful join, and when our role changes: the host keeps the status fresh. */
  private joined(isHost: boolean): void {
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
      if (!result.ok && result.error.code !== "busy" && result.error.code !== "offline")
        showFailure(result.error);
    });
  }

  // Any change, ours or a collaborator's, may change what git sees.
  private readonly handleUpdate = () => {
    if (this.isHost) this.runner.refreshSoon();
  };
}

/** Version control: the Git panel and the status badge. */
export const gitChannel = defineChannel("git", (scope) => new GitChannel(scope));
