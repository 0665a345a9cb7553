import { describe, expect, it } from "vitest";
import { RunQueue } from "./queue";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("RunQueue", () => {
  it("runs at most `concurrency` tasks, each in a slot of its own, then the waiting ones in order", async () => {
    const queue = new RunQueue(2, 2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: Array<[number, number]> = [];
    const runs = gates.map((gate, i) =>
      queue.run(async (slot) => {
        started.push([i, slot]);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(queue.queued).toBe(2);
    gates[1]?.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started[2]).toEqual([2, 1]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(queue.running).toBe(0);
  });

  it("refuses at once when the waiting line is full", async () => {
    const queue = new RunQueue(1, 1);
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const second = queue.run(async () => "second");
    await expect(queue.run(async () => "third")).rejects.toMatchObject({ code: "too_many_runs" });
    gate.resolve();
    await first;
    expect(await second).toBe("second");
  });

  it("takes an aborted waiter out of the line", async () => {
    const queue = new RunQueue(1, 1);
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const controller = new AbortController();
    const waiting = queue.run(async () => "never", controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "cancelled" });
    expect(queue.queued).toBe(0);
    gate.resolve();
    await first;
    expect(queue.running).toBe(0);
  });
});
