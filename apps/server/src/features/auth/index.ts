import type { Queryable } from "../../db/index";
import type { Config } from "../../env";
import { WindowCounter } from "../../http/rateLimit";
import type { Logger } from "../../logger";
import { createUserRepo } from "./repo";
import { authRoutes } from "./routes";
import { createAuthService } from "./service";
import { createTokenService } from "./tokens";

export type { AuthService } from "./service";
export { loadJwtSecret } from "./tokens";

/** Wires the accounts feature: its service (for other features) and its routes. */
export function createAuthFeature(db: Queryable, config: Config, jwtSecret: Uint8Array, logger: Logger) {
  const windowMs = config.LOGIN_WINDOW_SECONDS * 1000;
  const service = createAuthService({
    users: createUserRepo(db),
    tokens: createTokenService(jwtSecret, config.JWT_EXPIRES_IN_SECONDS),
    loginsPerAddress: new WindowCounter(config.LOGIN_MAX_PER_ADDRESS, windowMs),
    failedLoginsPerAccount: new WindowCounter(config.LOGIN_MAX_PER_ACCOUNT, windowMs),
  });
  return { service, routes: authRoutes(service, config, logger) };
}
