import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env";

describe("loadConfig", () => {
  it("has embedded defaults: port 3000, PGlite in ./data, GitHub off", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe(path.resolve("data"));
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.githubEnabled).toBe(false);
  });

  it("turns GitHub on only when both client id and secret are set", () => {
    expect(loadConfig({ GITHUB_CLIENT_ID: "id" }).githubEnabled).toBe(false);
    expect(loadConfig({ GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "s" }).githubEnabled).toBe(true);
  });

  it("treats empty strings as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", JWT_SECRET: "" }).DATABASE_URL).toBeUndefined();
  });

  it("names every bad variable in one error", () => {
    expect(() => loadConfig({ PORT: "70000", LOG_LEVEL: "loud" })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: "70000", LOG_LEVEL: "loud" });
    } catch (error) {
      expect(String(error)).toMatch(/PORT/);
      expect(String(error)).toMatch(/LOG_LEVEL/);
    }
  });
});
