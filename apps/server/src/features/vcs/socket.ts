import type { SocketErrorCode } from "@ensemble/protocol";
import type { Logger } from "../../logger";
import { handle, SocketEventError } from "../../realtime/handle";
import { requireJoined } from "../../realtime/session";
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
 * The Git panel's event on one socket: the socket must have joined the session, and the
 * service checks, per operation, that it joined as the host (the role the server gave it).
 */
export function registerVcsSocket(
  socket: EditorSocket,
  vcs: VcsService,
  authorOf: (userId: string | undefined, name: string) => Promise<Author>,
  logger: Logger,
) {
  const identity = socket.data.identity;
  let author: Promise<Author> | undefined;

  handle(socket, "gitOperation", logger, async ({ sessionId, operation }) => {
    const session = requireJoined(socket, sessionId);
    const caller = {
      isHost: session.isHost,
      author: () => {
        author ??= authorOf(identity.kind === "user" ? identity.id : undefined, identity.name);
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
