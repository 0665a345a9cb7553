import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import type { SocketEvents } from "../../realtime/handle";
import type { WorkspaceAccess } from "../collab/index";
import type { PullRequestService } from "../pulls/index";
import type { SessionService } from "../sessions/index";
import type { TerminalService } from "../terminal/index";
import { createHistoryJobs } from "./jobs";
import { createChunkPacker } from "./packer";
import { createReplayRepo } from "./repo";
import { createReplayService } from "./service";
import { registerReplayEvents } from "./socket";

export type { ReplayService } from "./service";

export interface ReplayFeatureDeps {
  db: Db;
  sessions: SessionService;
  terminal: TerminalService;
  pulls: PullRequestService;
  workspace: WorkspaceAccess;
  events: SocketEvents;
  logger: Logger;
  /** HISTORY_COMPACT_SECONDS and HISTORY_RETENTION_DAYS (env.ts). */
  history: { compactSeconds: number; retentionDays: number | undefined };
}

/**
 * Wires replay: `getReplayTimeline`, `seekReplay` and the host's `restoreVersion`, and the
 * history's jobs (compaction, retention), stopped by `close`.
 */
export function createReplayFeature(deps: ReplayFeatureDeps) {
  const { db, sessions, terminal, pulls, workspace, events, logger, history } = deps;
  const repo = createReplayRepo(db);
  const service = createReplayService({ repo, sessions, terminal, pulls, workspace });
  registerReplayEvents(events, service);
  const packer = createChunkPacker(logger);
  const jobs = createHistoryJobs(repo, logger, { ...history, pack: packer.pack });
  return {
    service,
    jobs,
    close: async () => {
      await jobs.close();
      await packer.close();
    },
  };
}
