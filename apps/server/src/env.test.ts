import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env";

describe("loadConfig", () => {
  it("has embedded defaults: port 3000, the embedded PostgreSQL in ./data, GitHub off", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe(path.resolve("data"));
    expect(loadConfig({ WEB_DIST: "../web/dist-e2e" }).WEB_DIST).toBe(path.resolve("../web/dist-e2e"));
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

  it("allows links from loopback and this machine's name by default, or from ALLOWED_HOSTS", () => {
    const defaults = loadConfig({}).ALLOWED_HOSTS;
    expect(defaults.slice(0, 3)).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect([3, 4]).toContain(defaults.length);
    if (defaults.length === 4) expect(defaults[3]).toBe(os.hostname().toLowerCase());
    expect(loadConfig({ ALLOWED_HOSTS: " Code.Example:8443 , [::1]:3000,ensemble" }).ALLOWED_HOSTS).toEqual([
      "code.example:8443",
      "[::1]:3000",
      "ensemble",
    ]);
    for (const bad of ["https://code.example", "a,,b", "host/path", "evil.example:port"]) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS/);
    }
  });

  it("turns metrics on with a token of 32 characters or more, off when it is unset or empty", () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: " " }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: "m".repeat(32) }).METRICS_TOKEN).toBe("m".repeat(32));
    expect(() => loadConfig({ METRICS_TOKEN: "too-short" })).toThrow(/METRICS_TOKEN: must be at least 32/);
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

  it("reads a TURN relay for time-limited credentials, and refuses one without a long secret", () => {
    expect(loadConfig({}).TURN_URLS).toBeUndefined();
    const turn = loadConfig({
      TURN_URLS: "turn:a.test:3478, turns:a.test:443",
      TURN_SECRET: "0123456789abcdef",
    });
    expect(turn.TURN_URLS).toEqual(["turn:a.test:3478", "turns:a.test:443"]);
    expect(turn.TURN_TTL_SECONDS).toBe(43_200);
    expect(() => loadConfig({ TURN_URLS: "turn:a.test:3478" })).toThrow(/TURN_SECRET: must be set/);
    expect(() => loadConfig({ TURN_URLS: "turn:a.test", TURN_SECRET: "short" })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ TURN_URLS: "stun:a.test", TURN_SECRET: "0123456789abcdef" })).toThrow(
      /TURN_URLS/,
    );
  });

  it("reads ICE_SERVERS as JSON (none by default) and refuses what RTCPeerConnection would not take", () => {
    expect(loadConfig({}).ICE_SERVERS).toEqual([]);
    const turn = [{ urls: ["turn:turn.example.test:3478"], username: "u", credential: "c" }];
    expect(loadConfig({ ICE_SERVERS: JSON.stringify(turn) }).ICE_SERVERS).toEqual(turn);
    expect(() => loadConfig({ ICE_SERVERS: "stun:nope" })).toThrow(/ICE_SERVERS: must be JSON/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"url":"stun:x"}]' })).toThrow(/ICE_SERVERS/);
  });
});
