import { createHash, timingSafeEqual } from "node:crypto";
import { Router } from "express";
import { DomainError } from "../errors";
import { bearerToken } from "../http/auth";
import { createRegistry, type MetricSources, type MetricsReporter } from "./registry";

export { PREFIX } from "./registry";
export type { MetricSources, MetricsReporter };

/** The path Prometheus scrapes, on the app's own port. */
export const METRICS_PATH = "/metrics";

/** Prometheus metrics of one app, or nothing at all when they are off. */
export interface Metrics {
  /** What features report as it happens; undefined when metrics are off, so nothing is measured. */
  reporter: MetricsReporter | undefined;
  /** Where the gauges read the app's state, once the features exist. */
  read(sources: MetricSources): void;
  /** `GET /metrics`: 404 when off, 401 without the bearer token, else the registry's text. */
  routes: Router;
}

/**
 * Metrics behind `token` (METRICS_TOKEN), or off when it is unset: then nothing is registered
 * or measured, and `/metrics` is a 404 like any unknown path.
 */
export function createMetrics(token: string | undefined): Metrics {
  const routes = Router();
  if (!token) {
    routes.get(METRICS_PATH, () => {
      throw new DomainError("not_found", "Metrics are off on this server (METRICS_TOKEN is unset)");
    });
    return { reporter: undefined, read: () => {}, routes };
  }
  const { registry, reporter, read } = createRegistry();
  const expected = digest(token);
  routes.get(METRICS_PATH, async (req, res) => {
    const given = bearerToken(req);
    // Digests of equal length, compared in constant time: the answer's timing says nothing of the token.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"');
      throw new DomainError("unauthenticated", "Scraping metrics needs the bearer token (METRICS_TOKEN)");
    }
    res
      .set("Cache-Control", "no-store")
      .type(registry.contentType)
      .send(await registry.metrics());
  });
  return { reporter, read, routes };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
