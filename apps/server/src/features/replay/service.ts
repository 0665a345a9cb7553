import {
  type Language,
  REPLAY_LIMITS,
  type ReplayAuthor,
  type ReplayEvent,
  type ReplayFrame,
  type ReplayTimeline,
  type RestoreVersionAck,
} from "@ensemble/protocol";
import { LRUCache } from "lru-cache";
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

/** A moment's project without its time and language, which differ between moments of one edit. */
type Moment = Omit<ReplayFrame, "at" | "language">;

/**
 * Moments built lately, by session and last update: the history before an update never
 * changes, so a moment built once is the same for every viewer. The timeline builds its end
 * as it answers, where the panel's slider opens (its first seek), so that seek finds it ready
 * and the code and rows every seek goes through are warm (bench/replay: the first seek after a
 * start was each opening's slowest). Playback asks for the same moment again between edits.
 */
const MOMENTS = { max: 64, ttlMs: 60_000 };

/**
 * How often a session's timeline builds its end at most. The open panel asks for the timeline
 * again as people type (about once a second), and each new end is a new moment (40-80 ms of
 * CPU for a 2-hour session): only the first opening in a while warms it; later seeks build
 * what they land on.
 */
const PREBUILD_EVERY_MS = 60_000;

/**
 * A session's replay: its timeline (edits, runs and their output, pull requests, authors) and the
 * project at any moment of it, read from the history collab keeps (doc_history) and its
 * checkpoints; and the host's restore of a moment, applied to the live files as a new edit.
 * Callers check who may ask; this service does not know sockets.
 */
export function createReplayService({ repo, sessions, terminal, pulls, workspace }: ReplayDeps) {
  const moments = new LRUCache<string, Promise<Moment>>({ max: MOMENTS.max, ttl: MOMENTS.ttlMs });
  /** Sessions whose timeline built its end lately. */
  const prebuilt = new LRUCache<string, true>({ max: 1024, ttl: PREBUILD_EVERY_MS });

  /** The last update stored at or before `at`, whether folded into a chunk or not yet. */
  async function positionAt(sessionId: string, at: number) {
    const [raw, folded] = await Promise.all([
      repo.position(sessionId, new Date(at + 1)),
      repo.chunkPosition(sessionId, at),
    ]);
    if (!raw) return folded;
    if (!folded) return raw;
    return raw.upto > folded.upto ? raw : folded;
  }

  /** The project as of the last edit stored at or before `at`, with who typed what, its folders and language. */
  async function frameAt(sessionId: string, at: number): Promise<ReplayFrame> {
    const [position, language] = await Promise.all([
      positionAt(sessionId, at),
      sessions.languageAt(sessionId, at),
    ]);
    if (!position) return { at, authors: [], lastEditAt: null, files: [], folders: [], language };
    return { at, ...(await momentOf(sessionId, position)), language };
  }

  /** The project right after update `upto`, built once for every seek that lands on it. */
  function momentOf(sessionId: string, position: { upto: number; at: Date }): Promise<Moment> {
    const key = `${sessionId}:${position.upto}`;
    let moment = moments.get(key);
    if (!moment) {
      moment = (async () => {
        const { doc, authors } = await documentAt(repo, sessionId, position.upto);
        try {
          return { lastEditAt: position.at.getTime(), ...filesOf(doc, authors) };
        } finally {
          doc.destroy();
        }
      })();
      moments.set(key, moment);
      // A failure is answered to this seek; the next one tries again.
      moment.catch(() => moments.delete(key));
    }
    return moment;
  }

  async function authorsOf(sessionId: string, ids: Iterable<string | null>): Promise<ReplayAuthor[]> {
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
     * The slider's data, from the history's summary alone (each chunk's span, size and authors,
     * and the rows not yet folded): no document is built, so the first opening of a long
     * session costs what a short one does.
     */
    async timeline(sessionId: string): Promise<ReplayTimeline> {
      const [summary, events] = await Promise.all([repo.summary(sessionId), eventsOf(sessionId)]);
      const { chunks, raw } = summary;
      const starts = [...chunks.map((c) => c.startAt), ...(raw.start === null ? [] : [raw.start])];
      const ends = [...chunks.map((c) => c.endAt), ...(raw.end === null ? [] : [raw.end])];
      const buckets = REPLAY_LIMITS.activityBuckets;
      const start = starts.length > 0 ? Math.min(...starts) : null;
      const end = ends.length > 0 ? Math.max(...ends) : null;
      let activity = new Array<number>(buckets).fill(0);
      if (start !== null && end !== null) {
        activity = raw.count > 0 ? await repo.rawActivity(sessionId, start, end, buckets) : activity;
        spreadActivity(activity, chunks, start, end);
      }
      const authors = await authorsOf(sessionId, summary.authors);
      // The panel's slider opens at the end: that moment is built now, after this answer,
      // unless it was lately (the open panel's refreshes while people type).
      if (end !== null && !prebuilt.has(sessionId)) {
        prebuilt.set(sessionId, true);
        void frameAt(sessionId, end).catch(() => {});
      }
      return {
        start,
        end,
        edits: raw.count + chunks.reduce((sum, c) => sum + c.edits, 0),
        activity,
        authors,
        events,
      };
    },

    seek: frameAt,

    /**
     * Brings the live files, folders and language to those of `at` as edits everyone receives
     * (a new change in the history, never a rewrite of it), authored by `by`. The session must be
     * open; files and empty folders created since are deleted, deleted ones come back. Answers
     * the language when the restore switched it (the caller announces it).
     */
    async restore(
      sessionId: string,
      at: number,
      by: string,
    ): Promise<RestoreVersionAck & { switchedTo: Language | null }> {
      await sessions.assertOpen(sessionId);
      const frame = await frameAt(sessionId, at);
      const live = workspace.files(sessionId);
      // The document is unloaded (nobody is in it): nothing was changed. The host's own socket
      // is in the session, so its document is loaded; this is a race with leaving.
      if (!live) throw new DomainError("conflict", "Join the session again to restore");
      const base = new Map(live.map((f) => [f.path, f.content]));
      const target = new Map(frame.files.map((f) => [f.path, f.content]));
      const applied = await workspace.applyTree(sessionId, base, target, by, frame.folders);
      const isSwitch = (await sessions.language(sessionId)) !== frame.language;
      if (isSwitch) await sessions.setLanguage(sessionId, frame.language);
      return { refused: applied?.refused ?? [], switchedTo: isSwitch ? frame.language : null };
    },
  };
}

/**
 * Adds each chunk's edits to the activity buckets over [start, end], spread evenly over the
 * chunk's span (its single times are inside its packed data, which the timeline does not read):
 * every edit is counted once, so the strip sums to the edits.
 */
export function spreadActivity(
  activity: number[],
  chunks: readonly { startAt: number; endAt: number; edits: number }[],
  start: number,
  end: number,
): void {
  const width = end - start + 1;
  const bucketOf = (t: number) =>
    Math.min(activity.length - 1, Math.max(0, Math.floor(((t - start) / width) * activity.length)));
  for (const chunk of chunks) {
    const span = chunk.endAt - chunk.startAt;
    for (let i = 0; i < chunk.edits; i++) {
      const bucket = bucketOf(chunk.startAt + (span * (i + 0.5)) / chunk.edits);
      activity[bucket] = (activity[bucket] ?? 0) + 1;
    }
  }
}

export type ReplayService = ReturnType<typeof createReplayService>;
