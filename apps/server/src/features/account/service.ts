import {
  ACCOUNT_MESSAGES,
  type AccountDeletionPreview,
  type DeleteAccountBody,
  type DeleteAccountResponse,
} from "@ensemble/protocol";
import type { Db } from "../../db/index";
import { DomainError } from "../../errors";
import type { AuthService } from "../auth/index";
import type { ChatService } from "../chat/index";
import type { WorkspaceFile } from "../collab/index";
import type { PullRequestService } from "../pulls/index";
import type { SessionService } from "../sessions/index";
import { type AccountExport, zipExport } from "./exportZip";

/** What happened to the sessions a deleted account hosted, for their live connections. */
export interface HostedSessionsClosed {
  /** Ended, kept as archives for the others who took part. */
  archived: string[];
  /** Deleted: nobody else took part. */
  deleted: string[];
  /** Every session the account took part in that remains: its name there is now "Deleted user". */
  remaining: string[];
}

export interface AccountDeps {
  db: Db;
  auth: AuthService;
  sessions: Pick<SessionService, "hostedCounts" | "forgetHost" | "hostedList">;
  chat: Pick<ChatService, "byAuthor" | "forgetAuthor">;
  pulls: Pick<PullRequestService, "byAuthor" | "forgetAuthor">;
  /** A session's files, live or stored (collab). */
  filesOf: (sessionId: string) => Promise<WorkspaceFile[]>;
  /** Told, after the deletion committed, so open editors of those sessions learn of it. */
  onHostedClosed: (closed: HostedSessionsClosed, userId: string) => void;
}

/** Who asks, and whether it is about their own account (anything else is refused, changing nothing). */
function assertOwn(callerId: string, id: string) {
  if (callerId !== id) throw new DomainError("forbidden", ACCOUNT_MESSAGES.ownOnly);
}

/**
 * Deleting an account and exporting its data. A deletion is one transaction: the sessions it
 * hosts end (others took part: kept as their archive) or go (nobody else did), its name on
 * chat and pull requests becomes "Deleted user", and its row is anonymised, ending every token;
 * then its live connections close.
 */
export function createAccountService(deps: AccountDeps) {
  const { db, auth, sessions, chat, pulls } = deps;
  return {
    async preview(callerId: string, id: string): Promise<AccountDeletionPreview> {
      assertOwn(callerId, id);
      const { withOthers, alone } = await sessions.hostedCounts(id);
      return {
        hasPassword: await auth.hasPassword(id),
        sessionsArchived: withOthers,
        sessionsDeleted: alone,
      };
    },

    /** `state` is the GitHub re-sign-in's cookie, when the account confirms with GitHub. */
    async delete(
      callerId: string,
      id: string,
      body: DeleteAccountBody,
      address: string,
      state: string | undefined,
    ): Promise<DeleteAccountResponse> {
      assertOwn(callerId, id);
      const { name } = await auth.confirmDeletion(id, body, address, state);
      const closed = await db.transaction(async (tx) => {
        const hosted = await sessions.forgetHost(tx, id);
        await chat.forgetAuthor(tx, id);
        await pulls.forgetAuthor(tx, id, name);
        // A second deletion racing this one finds nobody: the first one's answer stands.
        if (!(await auth.forget(tx, id))) throw new DomainError("not_found", "User not found");
        return hosted;
      });
      auth.endTokens(id);
      deps.onHostedClosed(closed, id);
      return {
        message: ACCOUNT_MESSAGES.deleted,
        sessionsArchived: closed.archived.length,
        sessionsDeleted: closed.deleted.length,
      };
    },

    /** The account's data as a zip: its record, the files of the sessions it hosts, its PRs and chat. */
    async export(callerId: string, id: string): Promise<Uint8Array> {
      assertOwn(callerId, id);
      const account = await auth.getOwn(callerId, id);
      const hosted = await sessions.hostedList(id);
      const data: AccountExport = {
        account: {
          ...account,
          hasPassword: await auth.hasPassword(id),
          exportedAt: new Date().toISOString(),
        },
        sessions: await Promise.all(
          hosted.map(async (s) => ({
            id: s.id,
            title: s.title,
            createdAt: s.createdAt.toISOString(),
            endedAt: s.endedAt?.toISOString() ?? null,
            files: await deps.filesOf(s.id),
          })),
        ),
        pullRequests: await pulls.byAuthor(id),
        chatMessages: await chat.byAuthor(id),
      };
      return zipExport(data);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
