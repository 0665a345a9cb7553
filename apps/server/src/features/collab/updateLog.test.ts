import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../logger";
import type { DocRepo } from "./repo";
import { UpdateLog } from "./updateLog";

type Rows = Parameters<DocRepo["appendMany"]>[0];

/** The one repo call the log makes, recording each batch; the first `failures` calls throw. */
function recordingRepo(failures = 0) {
  const batches: Rows[] = [];
  let left = failures;
  const repo = {
    appendMany: async (rows: Rows) => {
      if (left-- > 0) throw new Error("database away");
      batches.push([...rows]);
      return rows.length;
    },
  } as Pick<DocRepo, "appendMany"> as DocRepo;
  return { repo, batches };
}

const update = (n: number) => new Uint8Array([n]);

describe("UpdateLog", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stores a tick's updates in one write and gives them one promise", async () => {
    const { repo, batches } = recordingRepo();
    const log = new UpdateLog(repo, createLogger("silent"), 50);
    const first = log.append("s1", update(1));
    const second = log.append("s2", update(2));
    expect(second).toBe(first);
    let isStored = false;
    void first.then(() => {
      isStored = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(batches).toEqual([]);
    expect(isStored).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(isStored).toBe(true);
    expect(batches).toEqual([
      [
        { sessionId: "s1", update: update(1) },
        { sessionId: "s2", update: update(2) },
      ],
    ]);
    const next = log.append("s1", update(3));
    expect(next).not.toBe(first);
  });

  it("warns when the store left updates out (their session was deleted), and does not retry them", async () => {
    const batches: Rows[] = [];
    const repo = {
      appendMany: async (rows: Rows) => {
        batches.push([...rows]);
        return rows.filter((row) => row.sessionId !== "gone").length;
      },
    } as Pick<DocRepo, "appendMany"> as DocRepo;
    const lines: string[] = [];
    const logger = createLogger("warn", { write: (line: string) => void lines.push(line) });
    const log = new UpdateLog(repo, logger, 50);
    const stored = log.append("gone", update(1));
    log.append("s1", update(2));
    await vi.advanceTimersByTimeAsync(50);
    await stored;
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: 40, updates: 1, msg: "updates of deleted sessions were not stored" },
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(batches).toHaveLength(1);
  });

  it("retries a failed write with what came meanwhile; no promise resolves before it is stored", async () => {
    const { repo, batches } = recordingRepo(1);
    const log = new UpdateLog(repo, createLogger("silent"), 50, 1000);
    const resolved: number[] = [];
    void log.append("s1", update(1)).then(() => resolved.push(1));
    await vi.advanceTimersByTimeAsync(50);
    expect(batches).toEqual([]);
    void log.append("s1", update(2)).then(() => resolved.push(2));
    await vi.advanceTimersByTimeAsync(50);
    expect(resolved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toEqual([
      [
        { sessionId: "s1", update: update(1) },
        { sessionId: "s1", update: update(2) },
      ],
    ]);
    expect(resolved.sort()).toEqual([1, 2]);
  });
});
