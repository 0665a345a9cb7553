import type { TerminalEntry } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { OutputBatcher } from "./outputBatcher";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (check: () => boolean) => {
  while (!check()) await sleep(2);
};

describe("OutputBatcher", () => {
  it("sends the first piece at once, then at most one batch per interval, in order, stderr as errors", async () => {
    const sent: { at: number; entries: TerminalEntry[] }[] = [];
    const start = performance.now();
    const batcher = new OutputBatcher(async (entries) => {
      sent.push({ at: performance.now() - start, entries });
    }, 50);
    batcher.push("stdout", "a");
    await until(() => sent.length === 1);
    batcher.push("stdout", "b");
    batcher.push("stderr", "c\0");
    batcher.push("stdout", "d");
    expect(sent).toHaveLength(1);
    await until(() => sent.length === 2);
    expect(sent[1]?.entries).toEqual([
      { type: "output", content: "b" },
      { type: "error", content: "c\u2400" },
      { type: "output", content: "d" },
    ]);
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(45);
    expect(batcher.printed).toBe(true);
  });

  it("waits for a slow send before the next batch, which then holds everything since", async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    const batcher = new OutputBatcher(async (entries) => {
      sent.push(entries.map((e) => e.content).join(""));
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 10);
    batcher.push("stdout", "1");
    await until(() => sent.length === 1);
    for (const piece of ["2", "3", "4"]) {
      batcher.push("stdout", piece);
      await sleep(20);
    }
    expect(sent).toEqual(["1"]);
    release();
    await batcher.drain();
    expect(sent).toEqual(["1", "234"]);
  });

  it("drain sends what is left at once and resolves when nothing was printed", async () => {
    const sent: string[] = [];
    const batcher = new OutputBatcher(async (entries) => {
      sent.push(entries.map((e) => e.content).join(""));
    }, 1000);
    await batcher.drain();
    expect(batcher.printed).toBe(false);
    batcher.push("stdout", "x");
    await until(() => sent.length === 1);
    batcher.push("stdout", "y");
    await batcher.drain();
    expect(sent).toEqual(["x", "y"]);
  });
});
