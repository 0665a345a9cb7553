import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLimiters } from "./limiter";
import { createLogger } from "./logger";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const logger = createLogger("silent");

describe("limiter", () => {
  it("counts a key in memory up to its points, then answers seconds to wait", async () => {
    const limiters = createLimiters(logger);
    const limiter = limiters.create({
      name: `t-${randomBytes(4).toString("hex")}`,
      points: 3,
      durationSeconds: 60,
    });
    expect([await limiter.take("a"), await limiter.take("a"), await limiter.take("a")]).toEqual([0, 0, 0]);
    expect(await limiter.retryAfter("a")).toBeGreaterThan(0);
    expect(await limiter.take("a")).toBeGreaterThan(0);
    expect(await limiter.take("b")).toBe(0);
    await limiter.reset("a");
    expect(await limiter.retryAfter("a")).toBe(0);
    expect(await limiter.used("b")).toBe(1);
    await limiters.close();
  });

  it("counts together across two nodes through Redis", async () => {
    const name = `t-${randomBytes(4).toString("hex")}`;
    const [one, two] = [createLimiters(logger, REDIS_URL), createLimiters(logger, REDIS_URL)];
    const spec = { name, points: 4, durationSeconds: 60 };
    const [a, b] = [one.create(spec), two.create(spec)];
    await Promise.all([one.ready(), two.ready()]);
    for (let i = 0; i < 2; i++) {
      expect(await a.take("key")).toBe(0);
      expect(await b.take("key")).toBe(0);
    }
    // Four taken across both: either node now refuses, and a memory limiter alone would not.
    expect(await a.take("key")).toBeGreaterThan(0);
    expect(await b.retryAfter("key")).toBeGreaterThan(0);
    await a.reset("key");
    await Promise.all([one.close(), two.close()]);
  });
});
