import type { SocketErrorCode } from "@ensemble/protocol";
import { SocketEventError, type SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import type { EditorSocket } from "../../realtime/socket";
import { VcsError, type VcsErrorCode } from "./errors";
import type { Author, VcsService } from "./service";

const SOCKET_CODES: Record<VcsErrorCode, SocketErrorCode> = {
  forbidden: "forbidden",
  invalid: "invalid_payload",
  not_found: "not_found",
  conflict: "conflict",
  github_auth: "github_auth",
  rate_limited: "rate_limited",
  failed: "git_failed",
};

/**
 * The Git panel's event: the socket must have joined the session, and the service checks,
 * per operation, that it joined as the host (the role the server gave it).
 */
export function registerVcsEvents(
  events: SocketEvents,
  vcs: VcsService,
  authorOf: (userId: string | undefined, name: string) => Promise<Author>,
) {
  /** Each socket's commit author, looked up once (its account's Git identity). */
  const authors = new WeakMap<EditorSocket, Promise<Author>>();

  events.on("gitOperation", async (socket, { sessionId, operation }) => {
    const actor = actorOf(socket, sessionId);
    const caller = {
      isHost: actor.isHost,
      author: () => {
        let author = authors.get(socket);
        if (!author) {
          author = authorOf(actor.userId, actor.name);
          authors.set(socket, author);
        }
        return author;
      },
    };
    try {
      const { applied: _applied, ...outcome } = await vcs.run(sessionId, caller, operation);
      return outcome;
    } catch (error) {
      if (error instanceof VcsError) throw new SocketEventError(SOCKET_CODES[error.code], error.message);
      throw error;
    }
  });
}
