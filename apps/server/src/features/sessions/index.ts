import type { Db } from "../../db/index";
import type { Config } from "../../env";
import type { Limiters } from "../../limiter";
import { SocketEventError } from "../../realtime/handle";
import type { AuthService } from "../auth/index";
import { SessionError } from "./errors";
import { createSessionRepo } from "./repo";
import { sessionRoutes } from "./routes";
import { createSessionService } from "./service";

export { SessionError } from "./errors";
export type { Admission, SessionService } from "./service";

/** Wires the sessions feature. */
export function createSessionsFeature(db: Db, auth: AuthService, config: Config, limiters: Limiters) {
  const service = createSessionService(db, createSessionRepo(db));
  const perAddress = (name: string, points: number) =>
    limiters.create({ name, points, durationSeconds: config.SESSION_RATE_WINDOW_SECONDS });
  const limits = {
    create: perAddress("session-create-address", config.SESSION_CREATE_MAX_PER_ADDRESS),
    join: perAddress("session-join-address", config.SESSION_JOIN_MAX_PER_ADDRESS),
  };
  return { service, routes: sessionRoutes(service, auth, config, limits) };
}

/** Runs `work`, turning the sessions feature's refusals into the socket refusals they are. */
export async function asSocketRefusal<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) throw new SocketEventError(error.code, error.message);
    throw error;
  }
}
