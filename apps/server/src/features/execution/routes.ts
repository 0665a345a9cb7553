import { ExecuteRequestSchema } from "@ensemble/protocol";
import { type Request, Router } from "express";
import { clientAddress } from "../../http/auth";
import { parseBody } from "../../http/validate";
import type { ExecuteCaller } from "./caller";
import { isRunCancelled } from "./errors";
import type { ExecutionService } from "./service";

/**
 * Piston's v2 API under /api/v2. The runtime list is public, as Piston's is; running code
 * needs a signed-in user or a personal API token (or nothing, with EXECUTE_ANONYMOUS; session
 * participants, guests included, run through the socket's `runCode`). A client that
 * disconnects cancels its run, waiting or running.
 */
export function executionRoutes(execution: ExecutionService, callerOf: ExecuteCaller): Router {
  const router = Router();

  router.get("/v2/runtimes", async (_req, res) => {
    res.json(await execution.runtimes());
  });

  router.post("/v2/execute", async (req: Request, res) => {
    const rateKey = await callerOf(req.get("authorization"), clientAddress(req));
    const request = parseBody(req, ExecuteRequestSchema);
    const cancel = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) cancel.abort();
    });
    try {
      res.json(await execution.execute(request, { signal: cancel.signal, rateKey }));
    } catch (error) {
      // Nobody is listening any more; there is nothing to answer.
      if (isRunCancelled(error) || cancel.signal.aborted) return;
      throw error;
    }
  });

  return router;
}
