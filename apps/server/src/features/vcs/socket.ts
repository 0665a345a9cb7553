import type { SocketEvents } from "../../realtime/handle";
import { actorOf } from "../../realtime/presence";
import type { EditorSocket } from "../../realtime/socket";
import type { Author, VcsService } from "./service";

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
    const { applied: _applied, ...outcome } = await vcs.run(sessionId, caller, operation);
    return outcome;
  });
}
