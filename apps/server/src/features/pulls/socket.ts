import type { SocketErrorCode } from "@ensemble/protocol";
import { SocketEventError, type SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireCan, requireJoined } from "../../realtime/session";
import { PullRequestError, type PullRequestService } from "./service";

const SOCKET_CODES: Record<PullRequestError["code"], SocketErrorCode> = {
  invalid: "invalid_payload",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
};

/** The pull-request events; every one needs the session joined. */
export function registerPullRequestEvents(events: SocketEvents, pulls: PullRequestService) {
  async function refusing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PullRequestError)
        throw new SocketEventError(SOCKET_CODES[error.code], error.message);
      throw error;
    }
  }

  events.on("createPR", (socket, { sessionId, title, description, targetBranch, sourceBranch }) => {
    requireCan(socket, sessionId, "edit");
    return refusing(() =>
      pulls.create(sessionId, actorOf(socket, sessionId), {
        title,
        description,
        targetBranch,
        sourceBranch,
      }),
    );
  });

  events.on("reviewPR", (socket, { sessionId, prId, action, comment, github }) =>
    refusing(() => pulls.review(sessionId, actorOf(socket, sessionId), { prId, action, comment, github })),
  );

  events.on("getPRDiff", (socket, { sessionId, prId }) => {
    requireJoined(socket, sessionId);
    return refusing(() => pulls.diff(sessionId, prId));
  });

  events.on("requestPRSync", async (socket, sessionId) => {
    const { prs, unseen } = await pulls.syncFor(sessionId, actorOf(socket, sessionId));
    socket.emit("prSync", { type: "pr-sync", sessionId, prs });
    for (const event of unseen) socket.emit("prReviewed", event);
    return undefined;
  });
}
