import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { turnCredentials } from "./turn";

const config = { urls: ["turn:turn.example.com:3478"], secret: "north-sea-secret", ttlSeconds: 3600 };

describe("turnCredentials", () => {
  it("names the expiry and the participant, signed as coturn checks it (HMAC-SHA1 in base64)", () => {
    const server = turnCredentials(config, "user-7", Date.UTC(2026, 10, 26, 12) + 999);
    const expiry = Date.UTC(2026, 10, 26, 12) / 1000 + 3600;
    expect(server.urls).toEqual(config.urls);
    expect(server.username).toBe(`${expiry}:user-7`);
    // Computed by OpenSSL, not by our code: what coturn computes from its static-auth-secret.
    const openssl = execFileSync("openssl", ["dgst", "-sha1", "-hmac", config.secret, "-binary"], {
      input: server.username,
    }).toString("base64");
    expect(server.credential).toBe(openssl);
  });

  it("gives each participant their own, and a later join a later expiry", () => {
    const now = Date.now();
    const ann = turnCredentials(config, "ann", now);
    const ben = turnCredentials(config, "ben", now);
    expect(ann.username).not.toBe(ben.username);
    expect(ann.credential).not.toBe(ben.credential);
    const later = turnCredentials(config, "ann", now + 60_000);
    expect(Number(later.username?.split(":")[0])).toBe(Number(ann.username?.split(":")[0]) + 60);
  });
});
