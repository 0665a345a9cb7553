import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { AUTH_MESSAGES } from "@ensemble/protocol";
import { errors, jwtVerify, SignJWT } from "jose";
import { HttpError } from "../../http/errors";

/** Signs and checks the bearer tokens (HS256 JWT whose subject is the user id). */
export interface TokenService {
  sign(userId: string): Promise<string>;
  /** Returns the user id, or throws 401 'Invalid token' / 'Token expired'. */
  verify(token: string): Promise<string>;
}

export function createTokenService(secret: Uint8Array, expiresInSeconds: number): TokenService {
  return {
    sign: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(secret),
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
        if (typeof payload.sub !== "string") throw new Error("no subject");
        return payload.sub;
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          throw new HttpError("token_expired", AUTH_MESSAGES.tokenExpired);
        }
        throw new HttpError("invalid_token", AUTH_MESSAGES.invalidToken);
      }
    },
  };
}

/**
 * The configured secret, or one generated on first start and kept in the data folder
 * (mode 0600) so tokens survive restarts. Several processes must share JWT_SECRET.
 */
export async function loadJwtSecret(configured: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, "jwt-secret");
  try {
    return new Uint8Array(Buffer.from((await fs.readFile(file, "utf8")).trim(), "base64url"));
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "ENOENT")) throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(48);
  // `wx` fails if another process won the race; then its secret is the one to use.
  await fs.writeFile(file, secret.toString("base64url"), { mode: 0o600, flag: "wx" }).catch(() => {});
  return new Uint8Array(Buffer.from((await fs.readFile(file, "utf8")).trim(), "base64url"));
}
