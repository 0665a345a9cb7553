import type { Anchor, BareTiming } from "./bareRepo";
import type { HostSession } from "./hostSession";
import { type Segments, segmentsOf } from "./phases";
import type { Span } from "./trace";

/** One iteration of one side: both timings (ms) and the traced segments of each request. */
export interface Measured {
  status: number;
  addCommit: number;
  segments: Record<string, Segments>;
}

/** The server's trace, reached from this process: spans on this process's clock. */
export interface ServerTrace {
  start(): Promise<void>;
  take(): Promise<Span[]>;
}

/** Something whose `git status` and add + commit are timed: ours, or a bare-git anchor. */
export interface Side {
  measure(changed: readonly string[], message: string): Promise<Measured>;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((p) => b.includes(p));

/**
 * Each git process: starting it (fork + exec, the caller's loop blocked), then running it; and
 * for an anchor in another process, the IPC round trip a server asking it would add.
 */
function gitCalls({ spans, ipcMs }: BareTiming): Segments {
  const calls = spans.flatMap(
    (s): Segments => [
      [`git ${s.label}: fork + exec (loop blocked)`, s.spawned - s.start],
      [`git ${s.label}: running`, s.end - s.spawned],
    ],
  );
  return ipcMs === undefined ? calls : [...calls, [IPC_SEGMENT, ipcMs]];
}

/** The segment of an anchor in a helper process that a caller in another process would add. */
export const IPC_SEGMENT = "IPC round trip to the helper process";

/**
 * Our side: `status`, `add` (everything) and `commit` through the socket API, each traced in
 * the server. Checks that status lists exactly the changed files, unstaged, and that the
 * commit leaves nothing behind.
 */
export function oursSide(session: HostSession, trace: ServerTrace): Side {
  const traced = async (operation: Parameters<HostSession["git"]>[0]) => {
    await trace.start();
    const timed = await session.git(operation);
    return { ...timed, segments: segmentsOf(timed.sent, timed.acked, await trace.take()) };
  };
  return {
    async measure(changed, message) {
      const status = await traced({ op: "status" });
      const listed = status.outcome.status.entries;
      if (
        !sameSet(
          listed.map((e) => e.path),
          changed,
        ) ||
        listed.some((e) => e.staged || e.status !== "modified")
      )
        throw new Error(
          `our status listed ${JSON.stringify(listed)}, not the ${changed.length} changed files`,
        );
      const add = await traced({ op: "add", paths: [] });
      const commit = await traced({ op: "commit", message });
      if (commit.outcome.status.entries.length > 0) throw new Error("our commit left changes behind");
      return {
        status: status.acked - status.sent,
        addCommit: add.acked - add.sent + (commit.acked - commit.sent),
        segments: { status: status.segments, add: add.segments, commit: commit.segments },
      };
    },
  };
}

/** An anchor's side: the bare commands, checked to list the changed files. */
export function anchorSide(anchor: Anchor): Side {
  return {
    async measure(changed, message) {
      const status = await anchor.status();
      if (!sameSet(status.paths, changed)) throw new Error(`bare status listed ${status.paths.join(", ")}`);
      const addCommit = await anchor.addAndCommit(message);
      return {
        status: status.ms,
        addCommit: addCommit.ms,
        segments: { status: gitCalls(status), "add + commit": gitCalls(addCommit) },
      };
    },
  };
}
