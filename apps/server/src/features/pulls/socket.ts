import type { SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import { requireCan, requireJoined } from "../../realtime/session";
import type { PullRequestService } from "./service";

/** The pull-request events; every one needs the session joined. */
export function registerPullRequestEvents(events: SocketEvents, pulls: PullRequestService) {
  events.on("createPR", (socket, { sessionId, title, description, targetBranch, sourceBranch }) => {
    requireCan(socket, sessionId, "edit");
    return pulls.create(sessionId, actorOf(socket, sessionId), {
      title,
      description,
      targetBranch,
      sourceBranch,
    });
  });

  events.on("reviewPR", (socket, { sessionId, prId, action, comment, github }) =>
    pulls.review(sessionId, actorOf(socket, sessionId), { prId, action, comment, github }),
  );

  events.on("getPRDiff", (socket, { sessionId, prId }) => {
    requireJoined(socket, sessionId);
    return pulls.diff(sessionId, prId);
  });

  events.on("requestPRSync", async (socket, sessionId) => {
    const { prs, unseen } = await pulls.syncFor(sessionId, actorOf(socket, sessionId));
    socket.emit("prSync", { type: "pr-sync", sessionId, prs });
    for (const event of unseen) socket.emit("prReviewed", event);
    return undefined;
  });
}
