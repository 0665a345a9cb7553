import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logger";

const isApi = (req: IncomingMessage & { originalUrl?: string }) =>
  (req.originalUrl ?? req.url ?? "").startsWith("/api");
/** A load balancer asks every second or so: a line each would bury the log. */
const isHealthCheck = (req: IncomingMessage & { originalUrl?: string }) =>
  (req.originalUrl ?? req.url ?? "").split("?")[0] === "/api/health";

/**
 * One log line per API request, and one for any request that failed on the server (with its
 * error and stack when `res.err` is set); each carries a random request id (`req.id`), which
 * a 500's body repeats so a report can be matched to its line. Other requests (the web build)
 * and successful health checks are not logged.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: () => randomUUID(),
    // Only the path: query strings can carry OAuth codes and tokens.
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split("?")[0],
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return "error";
      return isApi(req) && !isHealthCheck(req) ? "info" : "silent";
    },
  });
}
