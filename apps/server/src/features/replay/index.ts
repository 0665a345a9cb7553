import type { Db } from "../../db/index";
import type { SocketEvents } from "../../realtime/handle";
import type { WorkspaceAccess } from "../collab/index";
import type { PullRequestService } from "../pulls/index";
import type { SessionService } from "../sessions/index";
import type { TerminalService } from "../terminal/index";
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
}

/** Wires replay: `getReplayTimeline`, `seekReplay` and the host's `restoreVersion`. */
export function createReplayFeature({ db, sessions, terminal, pulls, workspace, events }: ReplayFeatureDeps) {
  const service = createReplayService({ repo: createReplayRepo(db), sessions, terminal, pulls, workspace });
  registerReplayEvents(events, service);
  return { service };
}
