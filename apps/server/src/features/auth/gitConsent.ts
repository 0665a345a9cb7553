import { createHash, hkdfSync } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";

/** What GitHub's consent for the Git panel gives the host's browser. */
export interface GitConsent {
  token: string;
  login: string;
}

const ClaimsSchema = z.object({ token: z.string(), login: z.string(), state: z.string() });
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * Seals the Git panel's GitHub token into a code only this server's secret opens, bound to the
 * OAuth state of the browser that asked (its HttpOnly cookie) and good for `ttlSeconds`. The
 * token never travels readable in an address and is never stored (DESIGN decision 5): a link
 * with someone else's code gives nothing to a browser without their state cookie.
 */
export function createGitConsentSealer(secret: Uint8Array, ttlSeconds: number) {
  // A key of its own, so a sealed code and a bearer token can never stand in for each other.
  const key = new Uint8Array(hkdfSync("sha256", secret, new Uint8Array(0), "ensemble git consent", 32));
  return {
    seal: (consent: GitConsent, state: string) =>
      new EncryptJWT({ ...consent, state: sha256(state) })
        .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .encrypt(key),

    /** The consent in `code`, when it is live and `state` is the one it was sealed for. */
    async open(code: string, state: string | undefined): Promise<GitConsent | undefined> {
      if (state === undefined) return undefined;
      try {
        const { payload } = await jwtDecrypt(code, key, {
          keyManagementAlgorithms: ["dir"],
          contentEncryptionAlgorithms: ["A256GCM"],
        });
        const claims = ClaimsSchema.parse(payload);
        return claims.state === sha256(state) ? { token: claims.token, login: claims.login } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type GitConsentSealer = ReturnType<typeof createGitConsentSealer>;
