import {
  REPLAY_LIMITS,
  type ReplayAuthor,
  type ReplayEvent,
  type ReplayFrame,
  type ReplayTimeline,
  type RestoreVersionAck,
} from "@ensemble/protocol";
import { DomainError } from "../../errors";
import type { WorkspaceAccess } from "../collab/index";
import type { PullRequestService } from "../pulls/index";
import type { SessionService } from "../sessions/index";
import type { TerminalService } from "../terminal/index";
import { filesOf } from "./authorship";
import { documentAt } from "./history";
import type { ReplayRepo } from "./repo";

export interface ReplayDeps {
  repo: ReplayRepo;
  sessions: SessionService;
  terminal: TerminalService;
  pulls: Pick<PullRequestService, "list">;
  workspace: WorkspaceAccess;
}

/** Names for authors who are not (or no longer) listed among the participants. */
const SERVER_NAME = "Ensemble";
/** What every guest is called in the session (their identity's name). */
const GUEST_NAME = "Anonymous";
const FORMER_NAME = "Former participant";

/**
 * A session's replay: its timeline (edits, runs and their output, pull requests, authors) and the
 * project at any moment of it, read from the history collab keeps (doc_history) and its
 * checkpoints; and the host's restore of a moment, applied to the live files as a new edit.
 * Callers check who may ask; this service does not know sockets.
 */
export function createReplayService({ repo, sessions, terminal, pulls, workspace }: ReplayDeps) {
  /** The project as of the last edit stored at or before `at`, with who typed what. */
  async function frameAt(sessionId: string, at: number): Promise<ReplayFrame> {
    const position = await repo.position(sessionId, new Date(at + 1));
    if (!position) return { at, authors: [], lastEditAt: null, files: [] };
    const { doc, authors } = await documentAt(repo, sessionId, position.upto);
    try {
      return { at, lastEditAt: position.at.getTime(), ...filesOf(doc, authors) };
    } finally {
      doc.destroy();
    }
  }

  async function authorsOf(sessionId: string, ids: Set<string | null>): Promise<ReplayAuthor[]> {
    const names = new Map((await sessions.participants(sessionId)).map((p) => [p.user_id, p.name]));
    return [...ids].map((id) => ({
      id,
      name:
        id === null ? SERVER_NAME : (names.get(id) ?? (id.startsWith("guest-") ? GUEST_NAME : FORMER_NAME)),
    }));
  }

  async function eventsOf(sessionId: string): Promise<ReplayEvent[]> {
    const entries = await terminal.timed(sessionId);
    const events: ReplayEvent[] = entries.map((e) => ({ at: e.at.getTime(), kind: e.type, text: e.content }));
    for (const pr of await pulls.list(sessionId)) {
      events.push({
        at: Date.parse(pr.createdAt),
        kind: "pr-created",
        text: `${pr.author} opened "${pr.title}"`,
      });
      if (pr.reviewedAt)
        events.push({
          at: Date.parse(pr.reviewedAt),
          kind: "pr-reviewed",
          text: `"${pr.title}": ${pr.status}`,
        });
    }
    return events.sort((a, b) => a.at - b.at);
  }

  return {
    /**
     * The slider's data. Walking to the end on the way stores the checkpoints a long history
     * lacks, so the seeks that follow stay short.
     */
    async timeline(sessionId: string): Promise<ReplayTimeline> {
      const overview = await repo.overview(sessionId, REPLAY_LIMITS.activityBuckets);
      const authors = new Set<string | null>();
      if (overview.end) {
        const last = await repo.position(sessionId, new Date(overview.end.getTime() + 1));
        if (last) {
          const { doc, authors: byClient } = await documentAt(repo, sessionId, last.upto);
          doc.destroy();
          for (const author of Object.values(byClient)) authors.add(author);
        }
      }
      return {
        start: overview.start?.getTime() ?? null,
        end: overview.end?.getTime() ?? null,
        edits: overview.count,
        activity: overview.activity,
        authors: await authorsOf(sessionId, authors),
        events: await eventsOf(sessionId),
      };
    },

    seek: frameAt,

    /**
     * Brings the live files to those of `at` as character edits everyone receives (a new
     * change in the history, never a rewrite of it), authored by `by`. The session must be
     * open; files created since are deleted, deleted ones come back.
     */
    async restore(sessionId: string, at: number, by: string): Promise<RestoreVersionAck> {
      await sessions.assertOpen(sessionId);
      const frame = await frameAt(sessionId, at);
      const live = workspace.files(sessionId);
      // The document is unloaded (nobody is in it): nothing was changed. The host's own socket
      // is in the session, so its document is loaded; this is a race with leaving.
      if (!live) throw new DomainError("conflict", "Join the session again to restore");
      const base = new Map(live.map((f) => [f.path, f.content]));
      const target = new Map(frame.files.map((f) => [f.path, f.content]));
      const applied = await workspace.applyTree(sessionId, base, target, by);
      return { refused: applied?.refused ?? [] };
    },
  };
}

export type ReplayService = ReturnType<typeof createReplayService>;
