import type { SocketEvents } from "../../realtime/handle";
import { requireCan, requireJoined } from "../../realtime/session";
import type { EditorSocket } from "../../realtime/socket";
import type { PullRequestService, Requester } from "./service";

/** Who a socket is in the session it joined: the role is the one the server gave it. */
export function requesterOf(socket: EditorSocket, sessionId: string): Requester {
  const session = requireJoined(socket, sessionId);
  const identity = socket.data.identity;
  return {
    id: identity.id,
    name: identity.name,
    isHost: session.isHost,
    userId: identity.kind === "user" ? identity.id : undefined,
  };
}

/** The pull-request events; every one needs the session joined. */
export function registerPullRequestEvents(events: SocketEvents, pulls: PullRequestService) {
  events.on("createPR", (socket, { sessionId, title, description, targetBranch, sourceBranch }) => {
    requireCan(socket, sessionId, "edit");
    return pulls.create(sessionId, requesterOf(socket, sessionId), {
      title,
      description,
      targetBranch,
      sourceBranch,
    });
  });

  events.on("reviewPR", (socket, { sessionId, prId, action, comment, github }) =>
    pulls.review(sessionId, requesterOf(socket, sessionId), { prId, action, comment, github }),
  );

  events.on("getPRDiff", (socket, { sessionId, prId }) => {
    requireJoined(socket, sessionId);
    return pulls.diff(sessionId, prId);
  });

  events.on("requestPRSync", async (socket, sessionId) => {
    const { prs, unseen } = await pulls.syncFor(sessionId, requesterOf(socket, sessionId));
    socket.emit("prSync", { type: "pr-sync", sessionId, prs });
    for (const event of unseen) socket.emit("prReviewed", event);
    return undefined;
  });
}
