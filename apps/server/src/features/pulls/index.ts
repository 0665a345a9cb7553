import type { Db } from "../../db/index";
import type { SocketEvents } from "../../realtime/handle";
import type { PresenceRegistry } from "../../realtime/presence";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { SessionService } from "../sessions/index";
import type { CommandRegistry, TerminalService } from "../terminal/index";
import { type Author, createGithub, type GithubConfig, type VcsService } from "../vcs/index";
import { prCommand } from "./commands";
import { createPullRequestRepo } from "./repo";
import { createPullRequestService } from "./service";
import { registerPullRequestEvents } from "./socket";

export type { PullRequestService } from "./service";

/**
 * Wires pull requests: records in the database, branches in the session's repository (through
 * the vcs feature), review comments on GitHub, the socket's PR events, `prSync` to the session, `prReviewed` to authors,
 * and the terminal's `pr` command.
 */
export function createPullRequestFeature(deps: {
  io: EditorServer;
  presence: PresenceRegistry;
  db: Db;
  vcs: VcsService;
  /** Where GitHub is: a published PR's review comment is posted there. */
  github: GithubConfig;
  authorOf: (userId: string | undefined, name: string) => Promise<Author>;
  sessions: SessionService;
  terminal: TerminalService;
  commands: CommandRegistry;
  events: SocketEvents;
}) {
  const service = createPullRequestService({
    repo: createPullRequestRepo(deps.db),
    vcs: deps.vcs,
    github: createGithub(deps.github),
    sessions: deps.sessions,
    authorOf: deps.authorOf,
    events: {
      sync: (sessionId, event) => deps.io.to(sessionRoom(sessionId)).emit("prSync", event),
      async reviewed(sessionId, authorId, event) {
        const theirs = await deps.presence.fetchSocketsOf(sessionId, authorId);
        for (const socket of theirs) socket.emit("prReviewed", event);
        return theirs.length > 0;
      },
      announce: (sessionId, entries) => deps.terminal.announce(sessionId, entries),
    },
  });
  deps.commands.register(prCommand(service));
  registerPullRequestEvents(deps.events, service);
  return { service };
}
