import { DEFAULT_LANGUAGE } from "@ensemble/protocol";
import type { Db } from "../../db/index";
import type { Config } from "../../env";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import type { AuthService } from "../auth/index";
import { createSessionRepo } from "./repo";
import { sessionRoutes } from "./routes";
import { createSessionService } from "./service";

export { type MySessionsDeps, mySessionsRoutes } from "./mySessionsRoutes";
export type { Admission, SessionService } from "./service";
export { registerSessionEvents, type SessionControl, type SessionDocuments } from "./socket";

/** Wires the sessions feature. */
export function createSessionsFeature(
  db: Db,
  auth: AuthService,
  config: Config,
  limiters: Limiters,
  logger: Logger,
) {
  const service = createSessionService(db, createSessionRepo(db), (sessionId, stored) =>
    logger.warn(
      { sessionId, stored, fallback: DEFAULT_LANGUAGE },
      "session language is not a known language; opened in the default",
    ),
  );
  const perAddress = (name: string, points: number) =>
    limiters.create({ name, points, durationSeconds: config.SESSION_RATE_WINDOW_SECONDS });
  const limits = {
    create: perAddress("session-create-address", config.SESSION_CREATE_MAX_PER_ADDRESS),
    join: perAddress("session-join-address", config.SESSION_JOIN_MAX_PER_ADDRESS),
  };
  return { service, routes: sessionRoutes(service, auth, config, limits) };
}
