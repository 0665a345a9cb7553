import { ExecuteRequestSchema, LIMITS } from "@ensemble/protocol";
import express, { type NextFunction, type Request, type Response, Router } from "express";
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

  router.post(
    "/v2/execute",
    pistonClientBody,
    express.json({ limit: LIMITS.jsonBodyBytes }),
    async (req, res) => {
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
    },
  );

  return router;
}

/**
 * The published `piston-client` (1.0.2) posts its JSON with no content type of its own, so
 * node-fetch labels it `text/plain`: such a body is read as the JSON it is. Only without an
 * Origin header, that is from no browser: a page elsewhere may post `text/plain` without asking
 * (no CORS preflight), and must not make its visitors run code here.
 */
function pistonClientBody(req: Request, _res: Response, next: NextFunction) {
  if (req.is("text/plain") && req.get("origin") === undefined) {
    req.headers["content-type"] = "application/json";
  }
  next();
}
