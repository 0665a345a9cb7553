import type { Db } from "../../db/index";
import { sessionRoom } from "../../realtime/session";
import type { EditorServer } from "../../realtime/socket";
import type { AuthService } from "../auth/index";
import type { SessionDocuments } from "../sessions/index";
import { accountRoutes } from "./routes";
import { type AccountDeps, createAccountService } from "./service";

export type { AccountService, HostedSessionsClosed } from "./service";

/**
 * Wires account deletion and data export. When a deleted account's sessions close, their open
 * editors learn it at once: an archived one ends as the host's End does (its document refuses
 * edits here; everyone gets `sessionState`), a deleted one drops its sockets and its repository,
 * and every other session it took part in is told `accountDeleted`.
 */
export function createAccountFeature(
  deps: Omit<AccountDeps, "onHostedClosed"> & {
    db: Db;
    auth: AuthService;
    io: EditorServer;
    documents: Pick<SessionDocuments, "setEnded">;
    removeRepository: (sessionId: string) => Promise<void>;
    onError: (error: unknown) => void;
  },
) {
  const service = createAccountService({
    ...deps,
    onHostedClosed({ archived, deleted, remaining }, userId) {
      const endedAt = new Date().toISOString();
      for (const sessionId of archived) {
        deps.documents.setEnded(sessionId, true);
        deps.io.to(sessionRoom(sessionId)).emit("sessionState", { sessionId, endedAt });
      }
      for (const sessionId of remaining)
        deps.io.to(sessionRoom(sessionId)).emit("accountDeleted", { sessionId, userId });
      for (const sessionId of deleted) {
        deps.io.in(sessionRoom(sessionId)).disconnectSockets(true);
        deps.removeRepository(sessionId).catch(deps.onError);
      }
    },
  });
  return { service, routes: accountRoutes(service, deps.auth) };
}
