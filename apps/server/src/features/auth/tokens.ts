import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { AUTH_MESSAGES } from "@ensemble/protocol";
import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { DomainError } from "../../errors";

/** Who a token names, and the user's token version it was signed with. */
export interface TokenClaims {
  userId: string;
  version: number;
}

/**
 * Signs and checks the bearer tokens: HS256 JWTs whose subject is the user id and whose `ver`
 * is the user's token version when signed; a token of an older version is no longer valid.
 */
export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Returns the claims, or throws 401 'Invalid token' / 'Token expired'. */
  verify(token: string): Promise<TokenClaims>;
}

// Tokens signed before versions existed carry none: version 0, every user's first.
const PayloadSchema = z.object({ sub: z.string(), ver: z.number().int().min(0).default(0) });

export function createTokenService(secret: Uint8Array, expiresInSeconds: number): TokenService {
  return {
    sign: ({ userId, version }) =>
      new SignJWT({ ver: version })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
        .sign(secret),
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
        const { sub, ver } = PayloadSchema.parse(payload);
        return { userId: sub, version: ver };
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          throw new DomainError("token_expired", AUTH_MESSAGES.tokenExpired);
        }
        throw new DomainError("invalid_token", AUTH_MESSAGES.invalidToken);
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
