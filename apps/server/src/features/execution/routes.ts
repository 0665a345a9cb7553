import { ExecuteRequestSchema } from "@ensemble/protocol";
import { type Request, Router } from "express";
import { requireUser } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { AuthService } from "../auth/index";
import { isRunCancelled } from "./errors";
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
      if (isRunCancelled(error) || cancel.signal.aborted) return;
      throw error;
    }
  });

  return router;
}
