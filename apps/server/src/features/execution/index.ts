import type { Config } from "../../env";
import type { Limiters } from "../../limiter";
import type { Logger } from "../../logger";
import type { AuthService } from "../auth/index";
import { createExecuteCaller } from "./caller";
import { executionRoutes } from "./routes";
import { createExecutionService, type RunObserver } from "./service";

export type { ExecuteCaller } from "./caller";
export { CONNECT_CLOSE, CONNECT_PATH, mountPistonConnect } from "./connect";
export { isRunCancelled } from "./errors";
export { LiveIo } from "./liveIo";
export type { ExecuteOptions, ExecutionService, ProjectRun, RunnerFailure, RunObserver } from "./service";

/** Wires code execution: the Piston-compatible API over the sandboxed runner (or PISTON_URL). */
export function createExecutionFeature(
  config: Config,
  auth: AuthService,
  limiters: Limiters,
  logger: Logger,
  observer?: RunObserver,
) {
  const service = createExecutionService(config, limiters, logger, observer);
  const callerOf = createExecuteCaller(auth, config.EXECUTE_ANONYMOUS);
  return { service, callerOf, routes: executionRoutes(service, callerOf), close: () => service.close() };
}

// The sandbox's parts, for other features that run a long-lived program in it (a shared
// language server): the launcher, the spawner, the control groups and the slot uids.
export { type Cgroups, detectCgroups, type RunCgroup } from "./cgroups";
export { sandboxConfig } from "./local";
export { LAUNCHER } from "./sandbox";
export { createSpawner, killGroup, type SandboxProcess, type Spawn, spawnHere } from "./spawner";
export { claimUids } from "./uids";
