import fs from "node:fs/promises";
import path from "node:path";
import type { SingleFlight } from "../../cluster/flights";
import type { SocketEvents } from "../../realtime/handle";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { AuthService } from "../auth/index";
import type { WorkspaceAccess } from "../collab/index";
import type { SessionService } from "../sessions/index";
import type { CommandRegistry } from "../terminal/index";
import { gitCommand } from "./commands";
import { createGithub, type GithubConfig } from "./github";
import { vcsRoutes } from "./routes";
import { createVcsService } from "./service";
import { registerVcsEvents } from "./socket";

export { createGithub, type Github, type GithubConfig } from "./github";
export type { Author, VcsService } from "./service";

/**
 * Wires version control: a git repository per session under `DATA_DIR/repos`, the socket's
 * `gitOperation`, `POST /api/session/:id/git`, and the terminal's `git` command. Commits
 * carry the host's name and account e-mail; GitHub is reached at the configured addresses.
 */
export function createVcsFeature(deps: {
  io: EditorServer;
  dataDir: string;
  github: GithubConfig;
  workspace: WorkspaceAccess;
  commands: CommandRegistry;
  auth: AuthService;
  sessions: SessionService;
  events: SocketEvents;
  /** One git operation per repository across a cluster's nodes. */
  flights?: SingleFlight;
}) {
  const reposDir = path.join(deps.dataDir, "repos");
  const service = createVcsService({
    reposDir,
    workspace: deps.workspace,
    github: createGithub(deps.github),
    onStatus: (sessionId, status) =>
      deps.io.to(sessionRoom(sessionId)).emit("gitStatus", { sessionId, status }),
    assertOpen: deps.sessions.assertOpen,
    flights: deps.flights,
  });
  const authorOf = async (userId: string | undefined, name: string) => {
    const email = userId ? (await deps.auth.getOwn(userId, userId).catch(() => null))?.email : undefined;
    return { name, email: email ?? "anonymous@users.ensemble.invalid" };
  };
  deps.commands.register(gitCommand(service, authorOf));
  registerVcsEvents(deps.events, service, authorOf);
  return {
    service,
    authorOf,
    /** Deletes a deleted session's repository from disk (its id is a checked session id). */
    removeRepository: (sessionId: string) =>
      fs.rm(path.join(reposDir, path.basename(sessionId)), { recursive: true, force: true }),
    routes: vcsRoutes({ vcs: service, auth: deps.auth, sessions: deps.sessions, authorOf }),
  };
}
