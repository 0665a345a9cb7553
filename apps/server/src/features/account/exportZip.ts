import type { ChatMessage, PullRequest, User } from "@ensemble/protocol";
import { zipSync } from "fflate";
import type { WorkspaceFile } from "../collab/index";

/** Everything an account's export holds. */
export interface AccountExport {
  account: User & { hasPassword: boolean; exportedAt: string };
  sessions: {
    id: string;
    title: string;
    createdAt: string;
    endedAt: string | null;
    files: WorkspaceFile[];
  }[];
  pullRequests: PullRequest[];
  chatMessages: (ChatMessage & { sessionId: string })[];
}

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The export as a zip (fflate): `account.json` (no password hash: the record never holds one),
 * `sessions.json` listing the hosted sessions, each session's files at their paths under
 * `sessions/{id}/`, `pull-requests.json` and `chat-messages.json`. Session ids and workspace
 * paths are already safe zip paths (base64url; normalised, no `..`).
 */
export function zipExport(data: AccountExport): Uint8Array {
  const encoder = new TextEncoder();
  const entries: Record<string, Uint8Array> = {
    "account.json": json(data.account),
    "sessions.json": json(
      data.sessions.map(({ files, ...session }) => ({ ...session, files: files.length })),
    ),
    "pull-requests.json": json(data.pullRequests),
    "chat-messages.json": json(data.chatMessages),
  };
  for (const session of data.sessions) {
    entries[`sessions/${session.id}/`] = new Uint8Array(0);
    for (const file of session.files)
      entries[`sessions/${session.id}/${file.path}`] = encoder.encode(file.content);
  }
  return zipSync(entries, { level: 6 });
}
