import type { Queryable } from "../../db/index";
import type { Config } from "../../env";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import { createApiTokenRepo } from "./apiTokenRepo";
import { createApiTokens } from "./apiTokens";
import { createGitConsentSealer } from "./gitConsent";
import { createLoginCodes } from "./loginCodes";
import { createLoginThrottle } from "./loginThrottle";
import { createUserRepo } from "./repo";
import { authRoutes } from "./routes";
import { createAuthService } from "./service";
import { createTokenService } from "./tokens";

export { REAUTH_COOKIE, readCookie } from "./routes";
export type { AuthService } from "./service";
export { loadJwtSecret } from "./tokens";

/** A GitHub login's one-time code (or the Git panel's sealed consent) lives this long: the browser exchanges it at once. */
const LOGIN_CODE_SECONDS = 60;

/** Wires the accounts feature: its service (for other features) and its routes. */
export function createAuthFeature(
  db: Queryable,
  config: Config,
  jwtSecret: Uint8Array,
  limiters: Limiters,
  logger: Logger,
) {
  const service = createAuthService({
    users: createUserRepo(db),
    tokens: createTokenService(jwtSecret, config.JWT_EXPIRES_IN_SECONDS),
    loginCodes: createLoginCodes(db, LOGIN_CODE_SECONDS),
    loginThrottle: createLoginThrottle(limiters, {
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
      maxPerAddress: config.LOGIN_MAX_PER_ADDRESS,
      freeFailuresPerPair: config.LOGIN_FREE_FAILURES,
      freeFailuresPerAccount: config.LOGIN_MAX_PER_ACCOUNT,
      maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS,
    }),
    signUpsPerAddress: limiters.create({
      name: "register-address",
      points: config.REGISTER_MAX_PER_ADDRESS,
      durationSeconds: config.REGISTER_WINDOW_SECONDS,
    }),
    apiTokens: createApiTokens(createApiTokenRepo(db)),
  });
  const gitConsent = createGitConsentSealer(jwtSecret, LOGIN_CODE_SECONDS);
  return { service, routes: authRoutes(service, gitConsent, config, logger) };
}
