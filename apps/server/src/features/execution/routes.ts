import { ExecuteRequestSchema } from "@ensemble/protocol";
import { type Request, Router } from "express";
import { requireUser } from "../../http/auth";
import { HttpError, mapDomainErrors } from "../../http/errors";
import { parseBody } from "../../http/validate";
import type { AuthService } from "../auth/index";
import {
  BadRunRequestError,
  ExecutionError,
  RemoteRunnerError,
  RunAbortedError,
  RunnerUnavailableError,
  RunQueueFullError,
  RunRateLimitedError,
} from "./errors";
import type { ExecutionService } from "./service";

/**
 * Piston's v2 API under /api/v2. The runtime list is public, as Piston's is; running code
 * needs a signed-in user (session participants, guests included, run through the socket's
 * `runCode`). A client that disconnects cancels its run, waiting or running.
 */
export function executionRoutes(execution: ExecutionService, auth: AuthService): Router {
  const router = Router();

  router.get("/v2/runtimes", async (_req, res) => {
    res.json(await execution.runtimes());
  });

  router.post("/v2/execute", async (req: Request, res) => {
    const user = await requireUser(req, auth.authenticate);
    const request = parseBody(req, ExecuteRequestSchema);
    const cancel = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) cancel.abort();
    });
    try {
      res.json(await execution.execute(request, { signal: cancel.signal, rateKey: `user:${user.id}` }));
    } catch (error) {
      // Nobody is listening any more; there is nothing to answer.
      if (error instanceof RunAbortedError || cancel.signal.aborted) return;
      throw error;
    }
  });

  router.use(mapDomainErrors(httpError));
  return router;
}

/** The HTTP answer to each refusal of the execution service (Piston's: 400 with its message). */
function httpError(error: unknown): HttpError | undefined {
  if (!(error instanceof ExecutionError)) return undefined;
  if (error instanceof BadRunRequestError) return new HttpError("invalid_body", error.message);
  if (error instanceof RunRateLimitedError) {
    return new HttpError("too_many_runs", error.message, { "retry-after": String(error.retryAfterSeconds) });
  }
  if (error instanceof RunQueueFullError) return new HttpError("too_many_runs", error.message);
  if (error instanceof RunnerUnavailableError) return new HttpError("service_unavailable", error.message);
  if (error instanceof RemoteRunnerError) return new HttpError("bad_gateway", error.message);
  if (error instanceof RunAbortedError) return new HttpError("service_unavailable", error.message);
  return undefined;
}
