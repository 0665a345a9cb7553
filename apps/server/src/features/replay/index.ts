import type { Db } from "../../db/index";
import type { Logger } from "../../logger";
import type { EditorServer } from "../../realtime/socket";
import type { WorkspaceAccess } from "../collab/index";
import type { PullRequestService } from "../pulls/index";
import type { SessionService } from "../sessions/index";
import type { TerminalService } from "../terminal/index";
import { createReplayRepo } from "./repo";
import { createReplayService } from "./service";
import { registerReplaySocket } from "./socket";

export type { ReplayService } from "./service";

export interface ReplayFeatureDeps {
  io: EditorServer;
  db: Db;
  sessions: SessionService;
  terminal: TerminalService;
  pulls: PullRequestService;
  workspace: WorkspaceAccess;
  logger: Logger;
}

/** Wires replay: `getReplayTimeline`, `seekReplay` and the host's `restoreVersion`. */
export function createReplayFeature({
  io,
  db,
  sessions,
  terminal,
  pulls,
  workspace,
  logger,
}: ReplayFeatureDeps) {
  const service = createReplayService({ repo: createReplayRepo(db), sessions, terminal, pulls, workspace });
  io.on("connection", (socket) => registerReplaySocket(socket, service, logger));
  return { service };
}
