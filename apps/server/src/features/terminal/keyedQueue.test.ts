import { describe, expect, it } from "vitest";
import { KeyedQueue } from "./keyedQueue";

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe("KeyedQueue", () => {
  it("runs one key's tasks in order, each after the last has settled, and other keys alongside", async () => {
    const queue = new KeyedQueue();
    const done: string[] = [];
    const runs = [
      queue.run("a", () => later(30, "a1")).then((v) => done.push(v)),
      queue.run("a", () => Promise.reject(new Error("a2 failed"))).catch(() => done.push("a2 failed")),
      queue.run("a", () => later(1, "a3")).then((v) => done.push(v)),
      queue.run("b", () => later(5, "b1")).then((v) => done.push(v)),
    ];
    await Promise.all(runs);
    expect(done).toEqual(["b1", "a1", "a2 failed", "a3"]);
  });
});
