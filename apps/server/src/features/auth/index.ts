import type { Queryable } from "../../db/index";
import type { Config } from "../../env";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import { createUserRepo } from "./repo";
import { authRoutes } from "./routes";
import { createAuthService } from "./service";
import { createTokenService } from "./tokens";

export type { AuthService } from "./service";
export { loadJwtSecret } from "./tokens";

/** Wires the accounts feature: its service (for other features) and its routes. */
export function createAuthFeature(
  db: Queryable,
  config: Config,
  jwtSecret: Uint8Array,
  limiters: Limiters,
  logger: Logger,
) {
  const durationSeconds = config.LOGIN_WINDOW_SECONDS;
  const service = createAuthService({
    users: createUserRepo(db),
    tokens: createTokenService(jwtSecret, config.JWT_EXPIRES_IN_SECONDS),
    loginsPerAddress: limiters.create({
      name: "login-address",
      points: config.LOGIN_MAX_PER_ADDRESS,
      durationSeconds,
    }),
    failedLoginsPerAccount: limiters.create({
      name: "login-account",
      points: config.LOGIN_MAX_PER_ACCOUNT,
      durationSeconds,
    }),
  });
  return { service, routes: authRoutes(service, config, logger) };
}
