import { describe, expect, it } from "vitest";
import { ConfigError } from "../env";
import { assertClusterConfig, isClusterMode } from "./config";

describe("cluster configuration", () => {
  it("is cluster mode exactly when REDIS_URL is set", () => {
    expect(isClusterMode({})).toBe(false);
    expect(isClusterMode({ REDIS_URL: "redis://r:6379" })).toBe(true);
  });

  it("refuses cluster mode on the embedded database, naming the variables", () => {
    expect(() => assertClusterConfig({ REDIS_URL: "redis://r:6379" })).toThrow(ConfigError);
    expect(() => assertClusterConfig({ REDIS_URL: "redis://r:6379" })).toThrow(/REDIS_URL.*DATABASE_URL/s);
  });

  it("accepts one node on either database and a cluster on a PostgreSQL server", () => {
    expect(() => assertClusterConfig({})).not.toThrow();
    expect(() => assertClusterConfig({ DATABASE_URL: "postgres://db/x" })).not.toThrow();
    expect(() =>
      assertClusterConfig({ REDIS_URL: "redis://r:6379", DATABASE_URL: "postgres://db/x" }),
    ).not.toThrow();
  });
});
