import { existsSync } from "node:fs";
import path from "node:path";
import { createApp } from "./app";
import { assertClusterConfig, isClusterMode } from "./cluster/index";
import { openDatabase } from "./db/index";
import { migrate } from "./db/migrate";
import { ConfigError, loadConfig } from "./env";
import { loadJwtSecret } from "./features/auth/index";
import { warmUpReplay } from "./features/replay/warmup";
import { createLogger } from "./logger";

/** Composition root: configuration, logger, database, app, listen, graceful shutdown. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
    assertClusterConfig(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(78);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const db = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, "postgres"),
    // Without its database the server can only fail requests: exit, for a supervisor to restart.
    onEmbeddedExit: (error) => {
      logger.fatal({ err: error }, "the embedded database stopped");
      process.exit(1);
    },
  });
  const applied = await migrate(db);
  logger.info({ database: db.kind, applied }, "database ready");
  const pglite = path.join(config.DATA_DIR, "pglite");
  if (!config.DATABASE_URL && existsSync(pglite))
    logger.warn(
      { folder: pglite },
      "this folder holds the embedded database of an earlier version (PGlite): not read",
    );
  const jwtSecret = await loadJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  const app = createApp({ config, db, logger, jwtSecret });
  // Before listening, as a service that warms up before taking traffic: the first replay seek
  // then runs code V8 has optimised (warmup.ts), and a health check waits for it.
  // A failure is logged, not fatal: the rest of the product does not depend on replay.
  await warmUpReplay().then(
    (ms) => logger.debug({ ms: Math.round(ms) }, "replay warmed up"),
    (error: unknown) => logger.error({ err: error }, "the replay's warm-up failed: seeks may fail too"),
  );

  app.server.listen(config.PORT, config.HOST, () => {
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    logger.info({ port, github: config.githubEnabled }, `Ensemble listening on http://localhost:${port}`);
  });

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    const drainMs = config.DRAIN_MS ?? (isClusterMode(config) ? 3000 : 0);
    logger.info({ signal, drainMs }, "shutting down");
    const force = setTimeout(() => process.exit(1), drainMs + 10_000).unref();
    if (drainMs > 0) {
      // Failing the health check first lets the balancer send the reconnects to the survivors.
      app.drain();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    await app.close();
    await db.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error("Ensemble failed to start:", error);
  process.exit(1);
});
