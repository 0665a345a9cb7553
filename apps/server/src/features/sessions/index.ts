import type { Db } from "../../db/index";
import type { Config } from "../../env";
import type { AuthService } from "../auth/index";
import { createSessionRepo } from "./repo";
import { sessionRoutes } from "./routes";
import { createSessionService } from "./service";

export type { SessionService } from "./service";

/** Wires the sessions feature. */
export function createSessionsFeature(db: Db, auth: AuthService, config: Config) {
  const service = createSessionService(db, createSessionRepo(db));
  return { service, routes: sessionRoutes(service, auth, config) };
}
